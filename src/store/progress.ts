import type { TransferProgress } from './types';

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
