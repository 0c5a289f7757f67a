import { checkpoint } from '../../../src/protocol/cancel';
import { blockingRuns, exposeEngine, reportProgress } from '../../../src/worker/host/expose';

/** A worker that really computes, and can be told to crash or hang, for WorkerHost tests (each call's signal first). */
exposeEngine({
  sum(_signal: AbortSignal, n: number) {
    let total = 0;
    for (let i = 1; i <= n; i++) total += i;
    return total;
  },
  slow(_signal: AbortSignal, ms: number) {
    return new Promise((resolve) => setTimeout(() => resolve(ms), ms));
  },
  crash() {
    setTimeout(() => {
      throw new Error('worker fell over');
    });
    return new Promise(() => {});
  },
  /** Keeps the event loop busy for `ms` (no ping can be answered) while reporting progress. */
  busy(_signal: AbortSignal, ms: number) {
    const end = Date.now() + ms;
    let steps = 0;
    while (Date.now() < end) {
      steps++;
      reportProgress();
    }
    return steps > 0;
  },
  /** Blocks the event loop for `ms` without reporting, after announcing up to `announced` ms. */
  block(_signal: AbortSignal, ms: number, announced: number) {
    return blockingRuns(announced)(1, async () => {
      const end = Date.now() + ms;
      while (Date.now() < end);
      return ms;
    });
  },
  hang() {
    const end = Date.now() + 60_000;
    while (Date.now() < end);
  },
  /** Counts until the job is cancelled (the host's cancel reaches this call's signal). */
  async count(signal: AbortSignal) {
    for (;;) await checkpoint(signal);
  },
  pid: Math.random(),
});
