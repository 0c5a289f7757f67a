import { blockingRuns, cancelToken, exposeEngine, reportProgress } from '../../../src/workers/expose';

/** A worker that really computes, and can be told to crash or hang, for WorkerHost tests. */
exposeEngine({
  sum(n: number) {
    let total = 0;
    for (let i = 1; i <= n; i++) total += i;
    return total;
  },
  slow(ms: number) {
    return new Promise((resolve) => setTimeout(() => resolve(ms), ms));
  },
  crash() {
    setTimeout(() => {
      throw new Error('worker fell over');
    });
    return new Promise(() => {});
  },
  /** Keeps the event loop busy for `ms` (no ping can be answered) while reporting progress. */
  busy(ms: number) {
    const end = Date.now() + ms;
    let steps = 0;
    while (Date.now() < end) {
      steps++;
      reportProgress();
    }
    return steps > 0;
  },
  /** Blocks the event loop for `ms` without reporting, after announcing up to `announced` ms. */
  block(ms: number, announced: number) {
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
  /** Counts until the job is cancelled (the host's cancel reaches this job's token). */
  async count() {
    const token = cancelToken();
    for (;;) await token.checkpoint();
  },
  pid: Math.random(),
});
