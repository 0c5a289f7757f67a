/** Inputs grouped for one session run each, and what padding they cost. */
export interface BatchPlan {
  /** Indices into the inputs, per batch; each batch is padded to its longest member. */
  batches: number[][];
  /** Real tokens over all inputs. */
  tokens: number;
  /** Tokens the runs compute, padding included. */
  paddedTokens: number;
}

export interface BatchLimits {
  /** Rows per run. */
  maxBatch: number;
  /** Rows × padded length per run, bounding memory for long inputs. */
  maxTokens: number;
}

/**
 * Length buckets: inputs sorted by length and cut into runs of similar lengths, so a short text
 * is not padded to a long one's length. A run ends at `maxBatch` rows or when its padded size
 * would pass `maxTokens`.
 */
export function planBatches(lengths: readonly number[], limits: BatchLimits): BatchPlan {
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]! || a - b);
  const batches: number[][] = [];
  let current: number[] = [];
  let paddedTokens = 0;
  const close = () => {
    if (!current.length) return;
    paddedTokens += current.length * lengths[current[current.length - 1]!]!;
    batches.push(current);
    current = [];
  };
  for (const index of order) {
    const longest = lengths[index]!;
    if (current.length >= limits.maxBatch || (current.length + 1) * longest > limits.maxTokens) close();
    current.push(index);
  }
  close();
  return { batches, tokens: lengths.reduce((sum, n) => sum + n, 0), paddedTokens };
}
