import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { HEAD_BYTES, checkStart, hubHeaders, isCommit, parseContentRange, type HubHeaders } from '../common/weights';
import { describe } from './hub';

export interface PullFileJob {
  url: string;
  /** Where the file goes; `<dest>.part` holds a download in progress. */
  dest: string;
  name: string;
  size?: number;
  sha256?: string;
  /** Who said `sha256`, for the error (default: the hub's file list). */
  sha256From?: string;
  /** Times a broken or failed transfer is retried (resuming). Default 4. */
  retries?: number;
  /** A transfer that brings no byte for this long is broken off and resumed. Default 30 s. */
  stallMs?: number;
  /** Milliseconds before the first retry, doubled each time. Default 1000. */
  backoffMs?: number;
  onProgress?(loaded: number, total: number | undefined): void;
  onRetry?(attempt: number, reason: string): void;
  fetch?: typeof fetch;
}

/** A failure that retrying will not fix (404, an HTML page, a wrong checksum). */
export class PullError extends Error {
  override name = 'PullError';
}

const sizeOf = async (path: string) => (await stat(path).catch(() => undefined))?.size;

export async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Downloads one file to `dest`: resumes `<dest>.part` with a Range request, retries a cut or stalled
 * connection and 5xx/429 answers with backoff, rejects an HTML page or a wrong start (the weight
 * store's checks), checks size and SHA-256, then renames the part into place. A complete file that
 * is already there (right size and checksum) is kept.
 */
export async function pullFile(
  job: PullFileJob,
): Promise<{ size: number; sha256: string; reused: boolean; commit?: string }> {
  const { dest, name } = job;
  const existing = await sizeOf(dest);
  if (existing !== undefined && (job.size === undefined || existing === job.size)) {
    const sha256 = await sha256Of(dest);
    if (!job.sha256 || sha256 === job.sha256) {
      job.onProgress?.(existing, existing);
      return { size: existing, sha256, reused: true };
    }
  }
  await mkdir(dirname(dest), { recursive: true });
  const part = `${dest}.part`;
  const retries = job.retries ?? 4;
  const hub: HubHeaders = {};
  for (let attempt = 0; ; attempt++) {
    try {
      Object.assign(hub, await transfer(job, part));
      break;
    } catch (error) {
      if (error instanceof PullError || attempt >= retries) {
        if (error instanceof PullError) throw error;
        throw new PullError(
          `${name} could not be downloaded from ${job.url} after ${attempt + 1} attempts: ${describe(error)}. What arrived is kept in ${part}; run the command again to resume.`,
        );
      }
      job.onRetry?.(attempt + 1, describe(error));
      await sleep((job.backoffMs ?? 1000) * 2 ** attempt);
    }
  }
  const size = (await sizeOf(part))!;
  const refuse = async (what: string) => {
    await rm(part, { force: true });
    throw new PullError(`${name} from ${job.url} ${what}. It was deleted.`);
  };
  if (job.size !== undefined && size !== job.size) await refuse(`has ${size} bytes, the hub lists ${job.size}`);
  if (hub.size !== undefined && size !== hub.size)
    await refuse(`has ${size} bytes, its X-Linked-Size says ${hub.size}`);
  const sha256 = await sha256Of(part);
  if (job.sha256 && sha256 !== job.sha256)
    await refuse(`has SHA-256 ${sha256}, ${job.sha256From ?? 'the hub lists'} ${job.sha256}`);
  if (hub.sha256 && sha256 !== hub.sha256) await refuse(`has SHA-256 ${sha256}, its X-Linked-Etag says ${hub.sha256}`);
  await rename(part, dest);
  return { size, sha256, reused: false, commit: hub.commit };
}

/** Refuses an answer whose hub headers contradict what the file must be, before any of it is kept. */
function checkHub(job: PullFileJob, hub: HubHeaders, announced: number | undefined): void {
  const pinned = job.url.match(/\/resolve\/([^/]+)\//)?.[1];
  const at = (what: string) => new PullError(`${job.name} from ${job.url} ${what}. Nothing of it was kept.`);
  if (hub.commit && isCommit(pinned) && hub.commit !== pinned!.toLowerCase())
    throw at(`came from commit ${hub.commit} (X-Repo-Commit), not the pinned ${pinned}`);
  if (hub.size !== undefined && job.size !== undefined && hub.size !== job.size)
    throw at(`is ${hub.size} bytes by its X-Linked-Size, the hub lists ${job.size}`);
  for (const [size, who] of [
    [job.size, 'the hub lists'],
    [hub.size, 'its X-Linked-Size says'],
  ] as const)
    if (announced !== undefined && size !== undefined && announced !== size)
      throw at(`is ${announced} bytes by its Content-Length, ${who} ${size}`);
  if (hub.sha256 && job.sha256 && hub.sha256 !== job.sha256)
    throw at(`has SHA-256 ${hub.sha256} by its X-Linked-Etag, ${job.sha256From ?? 'the hub lists'} ${job.sha256}`);
}

/**
 * One request: appends to the part file from where it ends; answers the hub's headers.
 * Throws PullError for what a retry cannot fix.
 */
async function transfer(job: PullFileJob, part: string): Promise<HubHeaders> {
  const fetchImpl = job.fetch ?? fetch;
  let start = (await sizeOf(part)) ?? 0;
  if (job.size !== undefined && start > job.size) start = 0;
  if (job.size !== undefined && start === job.size && start > 0) return {};
  const controller = new AbortController();
  const stallMs = job.stallMs ?? 30_000;
  let timer = setTimeout(() => controller.abort(new Error(`no data for ${stallMs} ms`)), stallMs);
  const alive = () => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new Error(`no data for ${stallMs} ms`)), stallMs);
  };
  try {
    const response = await fetchImpl(job.url, {
      headers: start > 0 ? { range: `bytes=${start}-` } : {},
      signal: controller.signal,
    });
    if (response.status === 404 || response.status === 410 || response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      throw new PullError(`${job.name} is not at ${job.url} (HTTP ${response.status}).`);
    }
    if (response.status === 416 && start > 0) {
      await response.body?.cancel();
      await rm(part, { force: true });
      throw new Error('the server refused to resume (HTTP 416); starting over');
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new Error(`HTTP ${response.status}`);
    }

    const resumed =
      response.status === 206 && parseContentRange(response.headers.get('content-range'))?.start === start;
    if (!resumed) start = 0;
    const total = job.size ?? (resumed ? parseContentRange(response.headers.get('content-range'))?.total : undefined);
    const announced = Number(response.headers.get('content-length'));
    const expected = total ?? (response.headers.get('content-encoding') || !announced ? undefined : announced);
    const whole = resumed
      ? parseContentRange(response.headers.get('content-range'))?.total
      : response.headers.get('content-encoding') || !announced
        ? undefined
        : announced;
    const hub = hubHeaders(response.headers);
    try {
      checkHub(job, hub, whole);
    } catch (error) {
      await response.body.cancel();
      await rm(part, { force: true });
      throw error;
    }
    const out = await open(part, resumed ? 'a' : 'w');
    let loaded = start;
    let head: Uint8Array[] | undefined = resumed ? undefined : [];
    let headBytes = 0;
    const check = async () => {
      const bytes = Buffer.concat(head!);
      try {
        checkStart(job.name, job.url, bytes, response.headers.get('content-type'), expected);
      } catch (error) {
        await out.close();
        await rm(part, { force: true });
        throw new PullError((error as Error).message);
      }
      await out.write(bytes);
      head = undefined;
    };
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        alive();
        loaded += chunk.byteLength;
        if (head) {
          head.push(chunk);
          headBytes += chunk.byteLength;
          if (headBytes >= HEAD_BYTES) await check();
        } else await out.write(chunk);
        job.onProgress?.(loaded, expected);
      }
      if (head) await check();
    } finally {
      await out.close().catch(() => undefined);
    }
    if (expected !== undefined && loaded < expected)
      throw new Error(`the connection closed after ${loaded} of ${expected} bytes`);
    return hub;
  } finally {
    clearTimeout(timer);
  }
}
