/** A snapshot of the machine's CPU (bench/run.mjs `cpuSnapshot`: clock ticks of every core and of the bench's own processes). */
interface CpuSnapshot {
  at: number;
  busy: number;
  bench: number;
}

declare global {
  interface Window {
    benchCpu?: () => Promise<CpuSnapshot | null>;
  }
}

/**
 * Times `run` and what other jobs on the shared machine took meanwhile: their mean busy cores
 * (null where the runner cannot read /proc). On two cores, 1.0 means a whole core went elsewhere.
 */
export async function withOthers<T>(run: () => Promise<T>): Promise<{ value: T; othersCores: number | null }> {
  const before = (await globalThis.window?.benchCpu?.()) ?? null;
  const value = await run();
  const after = (await globalThis.window?.benchCpu?.()) ?? null;
  const othersCores =
    before && after
      ? Math.round(((after.busy - before.busy - (after.bench - before.bench)) * 1000) / (after.at - before.at)) / 100
      : null;
  return { value, othersCores };
}
