import { abortError } from '../../protocol/cancel';
import { messageOf } from '../../protocol/errors';
import { announcedSize, httpFailure, parseContentRange, readChecked } from './checks';
import { StoreError, isAbort, isQuotaExceeded } from './errors';
import {
  deleteFile,
  deletePartial,
  getChunks,
  putChunk,
  readPartial,
  readPin,
  writeManifest,
  writePartial,
  writePin,
} from './idb';
import { expectations, hubHeaders, sha256Of, verifyCommit, verifySha256, verifySize } from './pins';
import { ensureSpace, quotaFailure } from './space';
import { progressReporter } from './progress';
import type { FileProgress, FileSpec, Manifest, Partial } from './types';

export interface DownloadJob {
  spec: FileSpec;
  url: string;
  chunkSize: number;
  /** Times a broken connection is resumed before giving up. */
  retries: number;
  /** A connection that brings no byte for this long counts as broken. */
  stallMs: number;
  model: string | undefined;
  budget: number | undefined;
  signal?: AbortSignal;
  /** Bytes held so far (complete chunks of an earlier attempt included) and the size when known. */
  onBytes(loaded: number, total: number | undefined): void;
  /** The caller reads the file next: a whole download of a known size comes back in `bytes`. */
  read?: boolean;
  /** Check the download against the URL's first one and record the first (trust-on-first-use): hub files. */
  firstUse?: boolean;
}

/**
 * A cached file's manifest; after a whole download, also the file itself (`bytes`, when its size was
 * known up front) or the chunks just written (`written`) — never stored.
 */
export type Downloaded = Manifest & { bytes?: Uint8Array; written?: Blob[] };

/** Fetches a file into the cache chunk by chunk, resuming a partial download; writes the manifest last. */
export async function download(job: DownloadJob): Promise<Downloaded> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await attemptDownload(job);
    } catch (error) {
      const broken = error instanceof StoreError && error.code === 'network_error';
      if (!broken || attempt >= job.retries || job.signal?.aborted) throw error;
    }
  }
}

/** Aborts its signal when `job.signal` aborts or when `poke` has not been called for `stallMs`. */
function stallWatch(job: DownloadJob) {
  const controller = new AbortController();
  const stalled = () => controller.abort(new Error(`no data arrived for ${job.stallMs / 1000} s`));
  let timer = setTimeout(stalled, job.stallMs);
  const stop = () => clearTimeout(timer);
  job.signal?.addEventListener('abort', () => controller.abort(job.signal!.reason), { once: true });
  return {
    signal: controller.signal,
    poke() {
      stop();
      timer = setTimeout(stalled, job.stallMs);
    },
    stop,
  };
}

type Watch = ReturnType<typeof stallWatch>;

async function get(job: DownloadJob, watch: Watch, from: number): Promise<Response> {
  try {
    return await fetch(job.url, {
      cache: 'no-store',
      signal: watch.signal,
      headers: from > 0 ? { range: `bytes=${from}-` } : {},
    });
  } catch (error) {
    if (job.signal?.aborted) throw abortError(job.signal);
    throw broken(job, from, watch.signal.aborted ? watch.signal.reason : error);
  }
}

const broken = (job: DownloadJob, loaded: number, error: unknown) =>
  new StoreError(
    'network_error',
    `Downloading ${job.spec.name} from ${job.url} failed after ${loaded} bytes (${messageOf(error)}). Complete chunks are kept; loading again resumes from them.`,
    job.spec.name,
    job.url,
  );

/** A response continuing `partial` with Range, else (Range ignored, file changed) a full one with the partial dropped. */
async function open(
  job: DownloadJob,
  watch: Watch,
  partial: Partial | undefined,
): Promise<{ response: Response; start: number }> {
  if (partial && partial.chunks > 0) {
    const start = partial.chunks * partial.chunkSize;
    const response = await get(job, watch, start);
    if (!response.ok && response.status !== 416) return { response, start };
    const range = parseContentRange(response.headers.get('content-range'));
    const etag = response.headers.get('etag');
    const continues =
      response.status === 206 &&
      range?.start === start &&
      (partial.size === undefined || range.total === partial.size) &&
      (!partial.etag || !etag || etag === partial.etag);
    if (continues) return { response, start };
    await deleteFile(job.url);
    if (response.status === 200) return { response, start: 0 };
    await response.body?.cancel();
  }
  return { response: await get(job, watch, 0), start: 0 };
}

/**
 * Caches a file the user supplies (`ai.models.import`) under the URL its model loads it from,
 * through the same checked, chunked write as a download: size, ONNX start, SHA-256 when known.
 */
export async function storeBlob(job: Omit<DownloadJob, 'retries' | 'stallMs'>, blob: Blob): Promise<Manifest> {
  await deleteFile(job.url);
  const watch = stallWatch({ ...job, retries: 0, stallMs: 2 ** 31 - 1 });
  try {
    const response = new Response(blob, { headers: { 'content-length': String(blob.size) } });
    return await fetchInto({ ...job, retries: 0, stallMs: 0 }, watch, { response, start: 0 });
  } finally {
    watch.stop();
  }
}

async function attemptDownload(job: DownloadJob): Promise<Downloaded> {
  const { url, chunkSize } = job;
  let partial = await readPartial(url);
  if (partial && partial.chunkSize !== chunkSize) {
    await deleteFile(url);
    partial = undefined;
  }
  const watch = stallWatch(job);
  try {
    return await fetchInto(job, watch, await open(job, watch, partial));
  } finally {
    watch.stop();
  }
}

async function fetchInto(
  job: DownloadJob,
  watch: Watch,
  { response, start }: { response: Response; start: number },
): Promise<Downloaded> {
  const { spec, url, chunkSize } = job;
  const file = spec.name;
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw httpFailure(spec.name, url, response.status);
  }
  const hub = hubHeaders(response.headers);
  const pin = job.firstUse ? await readPin(url) : undefined;
  const expect = expectations(spec, hub, pin);
  const expected = expect.find((e) => e.size !== undefined)?.size ?? announcedSize(response.status, response.headers);
  const etag = response.headers.get('etag') ?? undefined;
  const reader = response.body.getReader();
  /**
   * A whole download of a known size lands in the one buffer the caller gets, each chunk written to
   * IndexedDB from its slice: no read back of the file from the written Blobs at the end (a full
   * copy through the browser's blob storage) and the SHA-256 taken over it directly.
   */
  const whole = job.read && start === 0 && expected !== undefined ? new Uint8Array(expected) : undefined;
  const buffer = whole ?? new Uint8Array(chunkSize);
  /** Where the chunk being filled starts in `buffer`. */
  let base = 0;
  let fill = 0;
  let index = start / chunkSize;
  let loaded = start;

  let writing: Promise<void> = Promise.resolve();
  /** This attempt's chunks as written, kept so the caller reads the file without reading it back from IndexedDB. */
  const written: Blob[] = [];
  /** Queues the filled chunk for IndexedDB (the Blob copies it, so the buffer refills at once); one write runs while the next chunk arrives. */
  const store = async (last: boolean) => {
    await writing;
    const at = index++;
    const blob = new Blob([buffer.subarray(base, base + fill)]);
    if (whole) base += fill;
    else written.push(blob);
    fill = 0;
    writing = putChunk(url, at, blob).then(() =>
      last ? undefined : writePartial({ url, chunkSize, chunks: at + 1, size: expected, etag }),
    );
    writing.catch(() => {});
  };

  try {
    verifyCommit(file, url, hub);
    for (const size of [expected, announcedSize(response.status, response.headers)])
      if (size !== undefined) verifySize(file, url, size, expect);
    loaded = await readChecked({
      file,
      url,
      response,
      expected,
      start,
      prepare: async () => {
        if (expected !== undefined)
          await ensureSpace({ needed: expected - start, model: job.model, budget: job.budget, file, url });
      },
      read: async () => {
        try {
          const next = await reader.read();
          watch.poke();
          return next;
        } catch (error) {
          if (job.signal?.aborted) throw abortError(job.signal);
          throw broken(job, loaded, watch.signal.aborted ? watch.signal.reason : error);
        }
      },
      keep: async (piece) => {
        for (let offset = 0; offset < piece.length;) {
          const n = Math.min(chunkSize - fill, piece.length - offset);
          buffer.set(piece.subarray(offset, offset + n), base + fill);
          fill += n;
          offset += n;
          if (fill === chunkSize) await store(false);
        }
      },
      onBytes: (bytes) => {
        loaded = bytes;
        job.onBytes(bytes, expected);
      },
      broken: (bytes, reason) => broken(job, bytes, reason),
    });
    if (fill > 0) await store(true);
    await writing;
    verifySize(file, url, loaded, expect);
    const sha256 = await sha256Of(whole ?? new Blob(start === 0 ? written : await getChunks(url, index)));
    verifySha256(file, url, sha256, expect);
    const commit = hub.commit;
    const manifest: Manifest = {
      url,
      size: loaded,
      chunkSize,
      chunks: index,
      sha256,
      etag,
      commit,
      cachedAt: Date.now(),
    };
    if (job.firstUse && !pin) await writePin({ url, size: loaded, sha256, commit, pinnedAt: Date.now() });
    await writeManifest(manifest);
    await deletePartial(url);
    if (whole) return { ...manifest, bytes: whole };
    return start === 0 ? { ...manifest, written } : manifest;
  } catch (error) {
    await reader.cancel().catch(() => {});
    await writing.catch(() => {});
    const resumable = isAbort(error) || (error instanceof StoreError && error.code === 'network_error');
    if (resumable) throw error;
    await deleteFile(url);
    if (isQuotaExceeded(error))
      throw await quotaFailure({
        needed: (expected ?? loaded) - start,
        model: job.model,
        budget: job.budget,
        file,
        url,
      });
    throw error;
  }
}

export interface UncachedJob {
  spec: FileSpec;
  url: string;
  model: string | undefined;
  signal?: AbortSignal;
  onProgress?(progress: FileProgress): void;
}

/**
 * A file fetched straight into memory where IndexedDB is unavailable: the same checked read as a
 * cached download, the same progress (shared with `ai.models` events), nothing kept.
 */
export async function fetchUncached({ spec, url, model, signal, onProgress }: UncachedJob): Promise<Uint8Array> {
  const file = spec.name;
  const failed = (loaded: number | undefined, error: unknown) =>
    new StoreError(
      'network_error',
      `Downloading ${file} from ${url} failed${loaded === undefined ? '' : ` after ${loaded} bytes`} (${messageOf(error)}).`,
      file,
      url,
    );
  const response = await fetch(url, { cache: 'no-store', signal }).catch((error: unknown) => {
    if (signal?.aborted) throw error;
    throw failed(undefined, error);
  });
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw httpFailure(file, url, response.status);
  }
  const hub = hubHeaders(response.headers);
  const expect = expectations(spec, hub, undefined);
  const expected = expect.find((e) => e.size !== undefined)?.size ?? announcedSize(response.status, response.headers);
  const progress = progressReporter(file, url, model, onProgress);
  let bytes = new Uint8Array(expected ?? 1 << 20);
  let loaded = 0;
  const reader = response.body.getReader();
  try {
    verifyCommit(file, url, hub);
    for (const size of [expected, announcedSize(response.status, response.headers)])
      if (size !== undefined) verifySize(file, url, size, expect);
    loaded = await readChecked({
      file,
      url,
      response,
      expected,
      start: 0,
      read: async () => {
        try {
          return await reader.read();
        } catch (error) {
          if (signal?.aborted) throw error;
          throw failed(loaded, error);
        }
      },
      keep: (piece) => {
        if (loaded + piece.length > bytes.length) {
          const grown = new Uint8Array(Math.max(bytes.length * 2, loaded + piece.length));
          grown.set(bytes.subarray(0, loaded));
          bytes = grown;
        }
        bytes.set(piece, loaded);
      },
      onBytes: (count) => {
        loaded = count;
        progress.report(count, expected);
      },
      broken: failed,
    });
  } catch (error) {
    await reader.cancel().catch(() => {});
    throw error;
  } finally {
    progress.flush();
  }
  const body = loaded === bytes.length ? bytes : bytes.slice(0, loaded);
  if (expect.some((e) => e.sha256)) verifySha256(file, url, await sha256Of(body), expect);
  return body;
}
