import { download, type Downloaded } from './download';
import { isHubFile } from './pins';
import { deleteFile, getChunks, readManifest } from './idb';
import { broadcast, progressReporter, transferProgress, withFileLock } from './progress';
import type { FileProgress, FileSpec, Manifest, StoreOptions } from './types';

export const DEFAULT_CHUNK_SIZE = 32 * 1024 * 1024;

export interface FileJob {
  spec: FileSpec;
  url: string;
  model: string | undefined;
  options: StoreOptions;
  signal?: AbortSignal;
  onProgress?(progress: FileProgress): void;
  /** The caller reads the file next (`readFile`): a fresh download hands its bytes over. */
  read?: boolean;
}

/**
 * The file's manifest, downloading it first unless the cache has it complete. Holds the file's
 * origin-wide lock while downloading; a second caller waits, sees the first one's progress, then
 * finds the file cached.
 */
export async function ensureFile(job: FileJob): Promise<Downloaded> {
  const { spec, url, model, signal, onProgress } = job;
  const progress = (loaded: number, total: number | undefined, rate: number): FileProgress => ({
    file: spec.name,
    url,
    model,
    ...transferProgress(loaded, total, rate),
  });
  const fromCache = (manifest: Manifest) => {
    onProgress?.(progress(manifest.size, manifest.size, 0));
    return manifest;
  };
  const cached = await readManifest(url);
  if (cached) return fromCache(cached);
  return withFileLock(
    url,
    signal,
    (seen) => onProgress?.({ ...seen, file: spec.name, model }),
    async () => {
      const done = await readManifest(url);
      if (done) return fromCache(done);
      const reporter = progressReporter(spec.name, url, model, onProgress);
      try {
        const manifest = await download({
          spec,
          url,
          model,
          signal,
          chunkSize: job.options.chunkSize ?? DEFAULT_CHUNK_SIZE,
          retries: job.options.retries ?? 2,
          stallMs: job.options.stallMs ?? 30_000,
          budget: job.options.budget,
          onBytes: reporter.report,
          read: job.read,
          firstUse: isHubFile(url),
        });
        broadcast({ type: 'cached', url, model });
        return manifest;
      } finally {
        reporter.flush();
      }
    },
  );
}

/**
 * A cached file as one buffer: the one a download just filled when it hands it over, else its
 * chunks joined by the browser, never copied in script — the chunks a download just wrote, or read
 * from IndexedDB. Undefined when a chunk is missing (the file is then dropped).
 */
export async function readFile(manifest: Downloaded): Promise<Uint8Array | undefined> {
  if (manifest.bytes?.length === manifest.size) return manifest.bytes;
  const chunks = manifest.written ?? (await getChunks(manifest.url, manifest.chunks));
  const blob = chunks && new Blob(chunks);
  if (!blob || blob.size !== manifest.size) {
    await deleteFile(manifest.url);
    return undefined;
  }
  return new Uint8Array(await blob.arrayBuffer());
}
