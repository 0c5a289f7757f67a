import { StoreError } from './errors';
import { ensureFile, readFile } from './files';
import { fetchUncached } from './download';
import { readManifest, storageAvailable, touchRecord } from './idb';
import type { FileLoader, FileSpec, StoreOptions } from './types';

/** The file `vaani pull` writes beside a model's files: what the folder holds, with sizes and SHA-256. */
export const FOLDER_MANIFEST = 'vaani-manifest.json';

export interface FolderManifest {
  /** Format version. */
  vaani: 1;
  /** The id the files were pulled for (a catalogue id such as 'chat-v2', or a voice's weights key). */
  model: string;
  /** Where they came from. */
  source: { host: string; repo: string; revision: string };
  /** The dtypes pulled, e.g. ['q8']. */
  dtypes: string[];
  /** Every file in the folder the engine reads, path relative to the folder. */
  files: Required<Pick<FileSpec, 'name' | 'size' | 'sha256'>>[];
  /** For files made locally from the source's (`vaani pull speech-stt-v1 --indic --int8`): how, and from which files. */
  built?: { by: string; recipe: string; from: Required<Pick<FileSpec, 'name' | 'size' | 'sha256'>>[] };
}

/** A hub URL (`…/resolve/{revision}/`) is listed by the hub; any other base is a folder, which may carry a manifest. */
export const isFolderBase = (base: string) => !/\/resolve\/[^/]+\/$/.test(base);

/** Parses a manifest, or says what is wrong with it. */
export function parseFolderManifest(text: string, where: string): FolderManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${where} is not JSON.`);
  }
  const manifest = value as Partial<FolderManifest>;
  const fileOk = (file: unknown) => {
    const f = file as FileSpec;
    return typeof f?.name === 'string' && Number.isSafeInteger(f.size) && /^[0-9a-f]{64}$/.test(f.sha256 ?? '');
  };
  if (manifest?.vaani !== 1 || !Array.isArray(manifest.files) || !manifest.files.every(fileOk))
    throw new Error(`${where} is not a vaani manifest (version 1, files with name, size and sha256).`);
  return manifest as FolderManifest;
}

/** The `vaani pull` command that fills a folder with a model's files. */
export const pullCommand = (model: string) => `npx vaani pull ${model} --to public/models`;

/** Says which file a folder lacks, which files it should hold (from its manifest), and how to get them. */
export function missingFilesMessage(base: string, file: string, listed: string[] | undefined, pull?: string) {
  const others = listed?.filter((name) => name !== file);
  const what = !listed
    ? ` (and no ${FOLDER_MANIFEST} listing the model's files)`
    : others?.length
      ? `, which its ${FOLDER_MANIFEST} lists with ${others.join(', ')}`
      : `, which its ${FOLDER_MANIFEST} does not list`;
  const fix = pull ? ` Fetch the model's files into the folder your site serves there with \`${pull}\`.` : '';
  return `The folder ${base} has no ${file}${what}.${fix}`;
}

/**
 * The folder's `vaani-manifest.json`, or undefined when it has none (a 404, an HTML fallback page,
 * no network); a manifest that is there but unreadable is an error naming it.
 */
export async function fetchFolderManifest(base: string, signal?: AbortSignal): Promise<FolderManifest | undefined> {
  const url = new URL(FOLDER_MANIFEST, base).href;
  let response: Response;
  try {
    response = await fetch(url, { cache: 'no-cache', signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    return undefined;
  }
  if (!response.ok || response.headers.get('content-type')?.includes('text/html')) {
    await response.body?.cancel();
    return undefined;
  }
  try {
    return parseFolderManifest(await response.text(), url);
  } catch (error) {
    throw new StoreError('not_a_file', (error as Error).message, FOLDER_MANIFEST, url);
  }
}

export interface FolderOptions {
  /** The command that fetches the model's files into a folder, named in the missing-files error. */
  pull?: string;
}

export type FolderLoader = FileLoader & { manifest(): Promise<FolderManifest | undefined> };

const isMissing = (error: unknown) =>
  error instanceof StoreError &&
  (error.code === 'file_not_found' || (error.code === 'not_a_file' && /HTML page/.test(error.message)));

/**
 * A folder's files: with a manifest, `has` answers from it (no probing requests) and `load` gets
 * its sizes and SHA-256 to check; a file the folder lacks is an error naming the folder, the files
 * and the command that fetches them. Without a manifest, `make()`'s loader probes as before.
 */
export function folderLoader(
  base: string,
  options: FolderOptions,
  make: (files: FileSpec[]) => FileLoader,
): FolderLoader {
  let manifest: Promise<FolderManifest | undefined> | undefined;
  let inner: Promise<FileLoader> | undefined;
  const read = () => (manifest ??= fetchFolderManifest(base));
  const loader = () => (inner ??= read().then((found) => make(found?.files ?? [])));
  const missing = async (file: string) => {
    const found = await read();
    const message = missingFilesMessage(
      base,
      file,
      found?.files.map((f) => f.name),
      options.pull,
    );
    return new StoreError('file_not_found', message, file, new URL(file, base).href);
  };
  return {
    manifest: read,
    async has(file, loadOptions) {
      const found = await read();
      if (found) return found.files.some((f) => f.name === file);
      return (await loader()).has(file, loadOptions);
    },
    async load(file, loadOptions) {
      const found = await read();
      if (found && !found.files.some((f) => f.name === file)) throw await missing(file);
      try {
        return await (await loader()).load(file, loadOptions);
      } catch (error) {
        if (isMissing(error)) throw await missing(file);
        throw error;
      }
    },
  };
}

/** A loader that fetches files under `base` with no cache. */
export function fetchLoader(base: string): FileLoader {
  const url = (file: string) => new URL(file, base).href;
  return {
    async load(file, options = {}) {
      const response = await fetch(url(file), { signal: options.signal });
      if (!response.ok) throw new Error(`Could not load ${file} from ${url(file)}: HTTP ${response.status}.`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      options.onProgress?.({ file, loaded: bytes.byteLength, total: bytes.byteLength });
      return bytes;
    },
    async has(file, options = {}) {
      const response = await fetch(url(file), { method: 'HEAD', signal: options.signal });
      return response.ok;
    },
  };
}

export interface StoreLoaderOptions extends StoreOptions {
  /** The model the files belong to: recorded for `models.cached()`, last use and eviction. */
  model?: string;
  /** Known sizes and SHA-256 sums, checked on download. */
  files?: FileSpec[];
  /**
   * The command that fetches the model's files (e.g. `npx vaani pull chat-v2 --to public/models`).
   * Given for models `vaani pull` makes: a folder base then reads its vaani-manifest.json instead of probing.
   */
  pull?: string;
}

const isHtmlFile = (file: string) => /\.html?$/i.test(file);

/**
 * The weight store's FileLoader. For a model in a folder of your site (not a hub URL), the folder's
 * vaani-manifest.json says which files exist and their sizes and SHA-256 (`vaani pull` writes it).
 */
export function storeLoader(base: string, options: StoreLoaderOptions = {}): FileLoader {
  if (!options.pull || !isFolderBase(base)) return cacheLoader(base, options);
  return folderLoader(base, options, (files) =>
    cacheLoader(base, { ...options, files: [...(options.files ?? []), ...files] }),
  );
}

/**
 * A FileLoader over the IndexedDB weight store: a cached file is read back as one buffer, an
 * absent one is downloaded (resumed, checked, cached) first. Where IndexedDB is unavailable, files
 * are downloaded and checked every time instead. Works in pages and workers.
 */
function cacheLoader(base: string, options: StoreLoaderOptions): FileLoader {
  const url = (file: string) => new URL(file, base).href;
  const spec = (file: string): FileSpec => options.files?.find((known) => known.name === file) ?? { name: file };
  return {
    async load(file, { signal, onProgress } = {}) {
      if (!(await storageAvailable()))
        return fetchUncached({ spec: spec(file), url: url(file), model: options.model, signal, onProgress });
      for (let attempt = 0; attempt < 2; attempt++) {
        const manifest = await ensureFile({
          spec: spec(file),
          url: url(file),
          model: options.model,
          options,
          signal,
          onProgress,
          read: true,
        });
        if (options.model) await touchRecord(options.model, { [file]: url(file) });
        const bytes = await readFile(manifest);
        if (bytes) return bytes;
      }
      throw new StoreError(
        'network_error',
        `${file} from ${url(file)} vanished from the cache twice while being read.`,
        file,
        url(file),
      );
    },
    async has(file, { signal } = {}) {
      if ((await storageAvailable()) && (await readManifest(url(file)))) return true;
      try {
        const response = await fetch(url(file), { method: 'HEAD', cache: 'no-store', signal });
        const html = response.headers.get('content-type')?.includes('text/html') && !isHtmlFile(file);
        return response.ok && !html;
      } catch (error) {
        if (signal?.aborted) throw error;
        return false;
      }
    },
  };
}
