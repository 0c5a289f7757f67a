import { HEAD_BYTES, checkSha256, checkSize, checkStart } from './check';
import { httpFailure } from './download';
import { StoreError } from './errors';
import { announcedSize } from './http';
import { progressReporter } from './files';
import type { FileProgress, FileSpec } from './types';

export interface UncachedJob {
  spec: FileSpec;
  url: string;
  model: string | undefined;
  signal?: AbortSignal;
  onProgress?(progress: FileProgress): void;
}

/**
 * A file fetched straight into memory where IndexedDB is unavailable: the same checks as a cached
 * download (not an HTML page, right start, size and SHA-256), the same progress (shared with
 * `ai.models` events), nothing kept.
 */
export async function fetchUncached({ spec, url, model, signal, onProgress }: UncachedJob): Promise<Uint8Array> {
  const file = spec.name;
  const response = await fetch(url, { cache: 'no-store', signal }).catch((error: unknown) => {
    if (signal?.aborted) throw error;
    throw new StoreError(
      'network_error',
      `Downloading ${file} from ${url} failed (${error instanceof Error ? error.message : String(error)}).`,
      file,
      url,
    );
  });
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw httpFailure(file, url, response.status);
  }
  const announced = announcedSize(response.status, response.headers);
  if (announced !== undefined && spec.size !== undefined) checkSize(file, url, announced, spec.size);
  const expected = spec.size ?? announced;
  const progress = progressReporter(file, url, model, onProgress);
  const report = (loaded: number) => progress.report(loaded, expected);
  let bytes = new Uint8Array(expected ?? 1 << 20);
  let loaded = 0;
  const reader = response.body.getReader();
  try {
    report(0);
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      if (loaded + next.value.length > bytes.length) {
        if (expected !== undefined) checkSize(file, url, loaded + next.value.length, expected);
        const grown = new Uint8Array(Math.max(bytes.length * 2, loaded + next.value.length));
        grown.set(bytes.subarray(0, loaded));
        bytes = grown;
      }
      bytes.set(next.value, loaded);
      if (loaded < HEAD_BYTES && loaded + next.value.length >= HEAD_BYTES)
        checkStart(file, url, bytes.subarray(0, HEAD_BYTES), response.headers.get('content-type'), expected);
      loaded += next.value.length;
      report(loaded);
    }
  } catch (error) {
    progress.flush();
    await reader.cancel().catch(() => {});
    if (error instanceof StoreError || signal?.aborted) throw error;
    throw new StoreError(
      'network_error',
      `Downloading ${file} from ${url} failed after ${loaded} bytes (${error instanceof Error ? error.message : String(error)}).`,
      file,
      url,
    );
  }
  progress.flush();
  if (announced !== undefined && loaded < announced) {
    throw new StoreError(
      'network_error',
      `Downloading ${file} from ${url} failed: the connection closed ${announced - loaded} bytes early.`,
      file,
      url,
    );
  }
  if (loaded < HEAD_BYTES)
    checkStart(file, url, bytes.subarray(0, loaded), response.headers.get('content-type'), expected);
  checkSize(file, url, loaded, expected);
  const body = loaded === bytes.length ? bytes : bytes.slice(0, loaded);
  if (spec.sha256) await checkSha256(file, url, new Blob([body]), spec.sha256);
  return body;
}
