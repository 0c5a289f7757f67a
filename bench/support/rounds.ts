/** Taking turns on a shared machine: the order of contenders in a round, and several runs as one figure. */

/** One timed answer of a contender. */
export interface Timing {
  ttftMs: number;
  /** First token to last: generated − 1 steps. */
  decodeMs: number;
  /** Each step's time (one token to the next); after `best`, the steps of the calmest round. */
  stepsMs: number[];
  /** After `best`: every round's steps together. */
  pooledStepsMs?: number[];
  promptTokens: number;
  generated: number;
}

/**
 * The contenders' order in a round: each round starts one contender later, so none always runs right
 * after the same other (whose onnxruntime threads may still be spinning, or its garbage collected).
 */
export const order = (count: number, turn: number) => Array.from({ length: count }, (_, k) => (k + turn) % count);
/**
 * Several runs as one, each figure from the run least disturbed by other work on the machine: the
 * fastest time to first token and first-to-last decode, and the steps of the round with the lowest
 * median step. One round that other work slowed moved the pooled median: fp32 at 128 tokens, Vaani's
 * own session.run steps had a median of 76.8 ms in one round and 104.8 ms in the next, the bare
 * loop's 78.7 and 76.6 ms (load 1.9–4).
 */
export const best = (runs: Timing[]): Timing => ({
  ttftMs: Math.min(...runs.map((r) => r.ttftMs)),
  decodeMs: Math.min(...runs.map((r) => r.decodeMs)),
  stepsMs: runs.reduce((calm, r) => (median(r.stepsMs) < median(calm.stepsMs) ? r : calm)).stepsMs,
  pooledStepsMs: runs.flatMap((r) => r.stepsMs),
  promptTokens: runs[0]!.promptTokens,
  generated: runs[0]!.generated,
});

/** The middle value (the mean of the two middle ones for an even count). */
export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
