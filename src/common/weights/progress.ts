import type { FileProgress, ModelProgress, TransferProgress } from './types';

/** Bytes per second over the last `windowMs`, from (time, loaded) samples. */
export class RateMeter {
  private readonly samples: { at: number; loaded: number }[] = [];

  constructor(private readonly windowMs = 3000) {}

  sample(loaded: number, at: number): number {
    this.samples.push({ at, loaded });
    while (this.samples.length > 2 && at - this.samples[1]!.at >= this.windowMs) this.samples.shift();
    const first = this.samples[0]!;
    const seconds = (at - first.at) / 1000;
    return seconds > 0 ? Math.max(0, (loaded - first.loaded) / seconds) : 0;
  }
}

/** loaded / total, rate and ETA as one progress value. */
export function transferProgress(loaded: number, total: number | undefined, rate: number): TransferProgress {
  const fraction = total ? Math.min(1, loaded / total) : total === 0 ? 1 : undefined;
  const left = total === undefined ? undefined : Math.max(0, total - loaded);
  const eta = left === undefined ? undefined : left === 0 ? 0 : rate > 0 ? left / rate : undefined;
  return { loaded, total, fraction, rate, eta };
}

/** Calls `emit` at most every `intervalMs`, and always for the last value when `flush` is called. */
export function throttle<T>(emit: (value: T) => void, intervalMs: number, now: () => number = Date.now) {
  let last = -Infinity;
  let pending: { value: T } | undefined;
  return {
    push(value: T) {
      const at = now();
      if (at - last >= intervalMs) {
        last = at;
        pending = undefined;
        emit(value);
      } else pending = { value };
    },
    flush() {
      if (pending) emit(pending.value);
      pending = undefined;
    },
  };
}

/** Progress of a model from the latest progress of each of its files. Total is known once every file's is. */
export function modelProgress(model: string, files: FileProgress[]): ModelProgress {
  const loaded = files.reduce((sum, file) => sum + file.loaded, 0);
  const totals = files.map((file) => file.total);
  const total = totals.every((size): size is number => size !== undefined)
    ? totals.reduce((sum, size) => sum + size, 0)
    : undefined;
  const rate = files.reduce((sum, file) => sum + (file.fraction === 1 ? 0 : file.rate), 0);
  return { model, ...transferProgress(loaded, total, rate), files };
}

/** What every page and worker of the origin tells the others about the cache. */
export type StoreMessage =
  | { type: 'progress'; progress: FileProgress }
  | { type: 'cached'; url: string; model?: string }
  | { type: 'evicted' | 'deleted'; model: string }
  | { type: 'cleared' };

const CHANNEL = 'vaani-store';
let sender: BroadcastChannel | undefined;

/** Tells every listener of the origin, this context's own included (the sender is a separate channel object). */
export function broadcast(message: StoreMessage): void {
  if (typeof BroadcastChannel === 'undefined') return;
  (sender ??= new BroadcastChannel(CHANNEL)).postMessage(message);
}

/** Calls `onMessage` for every store message of the origin until the returned function is called. */
export function listen(onMessage: (message: StoreMessage) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<StoreMessage>) => onMessage(event.data);
  return () => channel.close();
}

/**
 * Runs `job` holding the origin-wide lock of one file, so two tabs (or a tab and a worker) never
 * download it twice; while another holder has it, its progress is passed to `onWaitingProgress`.
 */
export async function withFileLock<T>(
  url: string,
  signal: AbortSignal | undefined,
  onWaitingProgress: (progress: FileProgress) => void,
  job: () => Promise<T>,
): Promise<T> {
  const locks = globalThis.navigator?.locks;
  if (!locks) return job();
  const stop = listen((message) => {
    if (message.type === 'progress' && message.progress.url === url) onWaitingProgress(message.progress);
  });
  let waiting = true;
  try {
    return await locks.request(`vaani-store:${url}`, { signal }, () => {
      stop();
      waiting = false;
      return job();
    });
  } finally {
    if (waiting) stop();
  }
}

const BROADCAST_INTERVAL_MS = 100;

/** Reports a file's transfer to `onProgress` and, throttled, to every `ai.models` of the origin; `flush` sends the last value. */
export function progressReporter(
  file: string,
  url: string,
  model: string | undefined,
  onProgress?: (progress: FileProgress) => void,
) {
  const meter = new RateMeter();
  const shared = throttle(
    (value: FileProgress) => broadcast({ type: 'progress', progress: value }),
    BROADCAST_INTERVAL_MS,
  );
  return {
    report(loaded: number, total: number | undefined) {
      const value: FileProgress = {
        file,
        url,
        model,
        ...transferProgress(loaded, total, meter.sample(loaded, performance.now())),
      };
      onProgress?.(value);
      shared.push(value);
    },
    flush: () => shared.flush(),
  };
}
