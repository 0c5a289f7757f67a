import { StoreError } from './errors';
import { folderLoader } from './folder';
import { isFolderBase } from './folder-manifest';
import { ensureFile, readFile } from './files';
import { readManifest, storageAvailable, touchRecord } from './idb';
import type { FileLoader } from './loader';
import type { FileSpec, StoreOptions } from './types';
import { fetchUncached } from './uncached';

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
 * vaani-manifest.json says which files exist and their sizes and SHA-256 (src/store/folder.ts).
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
