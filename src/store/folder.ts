import { StoreError } from './errors';
import { FOLDER_MANIFEST, missingFilesMessage, parseFolderManifest, type FolderManifest } from './folder-manifest';
import type { FileLoader } from './loader';
import type { FileSpec } from './types';

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
