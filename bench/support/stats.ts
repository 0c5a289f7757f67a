/** The q-quantile (0..1) of a sample, by nearest rank. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** Times `run` `count` times after `warmup` runs; returns each duration in ms. */
export async function timeEach(
  count: number,
  run: () => Promise<unknown>,
  warmup = Math.ceil(count / 10),
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return times;
}

/**
 * Times A and B interleaved (A B A B …) so that drift in the machine's speed hits both alike.
 */
export async function timePaired(count: number, a: () => Promise<unknown>, b: () => Promise<unknown>) {
  for (let i = 0; i < Math.ceil(count / 10); i++) {
    await a();
    await b();
  }
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < count; i++) {
    let start = performance.now();
    await a();
    ta.push(performance.now() - start);
    start = performance.now();
    await b();
    tb.push(performance.now() - start);
  }
  return { a: ta, b: tb };
}
