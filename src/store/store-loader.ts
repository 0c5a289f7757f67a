import { StoreError } from './errors';
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
}

const isHtmlFile = (file: string) => /\.html?$/i.test(file);

/**
 * A FileLoader over the IndexedDB weight store: a cached file is read back as one buffer, an
 * absent one is downloaded (resumed, checked, cached) first. Where IndexedDB is unavailable, files
 * are downloaded and checked every time instead. Works in pages and workers.
 */
export function storeLoader(base: string, options: StoreLoaderOptions = {}): FileLoader {
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
