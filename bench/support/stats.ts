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
 * Times A and B interleaved (A B A B …) so that drift in the machine's speed hits both alike;
 * `alternate` runs every other pair B first (A B B A …), so neither always runs right after the other.
 */
export async function timePaired(
  count: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  alternate = false,
) {
  for (let i = 0; i < Math.ceil(count / 10); i++) {
    await a();
    await b();
  }
  const ta: number[] = [];
  const tb: number[] = [];
  const time = async (run: () => Promise<unknown>, into: number[]) => {
    const start = performance.now();
    await run();
    into.push(performance.now() - start);
  };
  for (let i = 0; i < count; i++) {
    if (alternate && i % 2) {
      await time(b, tb);
      await time(a, ta);
    } else {
      await time(a, ta);
      await time(b, tb);
    }
  }
  return { a: ta, b: tb };
}
