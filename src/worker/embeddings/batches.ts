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
  /**
   * What one more session run costs, in padded tokens (reading every weight once more, launching
   * every kernel once more). Splitting a batch pays this to save padding.
   */
  runCost: number;
}

/**
 * Length buckets: inputs sorted by length and cut into runs of similar lengths, so a short text is
 * not padded to a long one's length. The cut is the cheapest one — padded tokens plus `runCost`
 * per run — found exactly by dynamic programming over the sorted lengths; a run holds at most
 * `maxBatch` rows and, unless it is one input alone, at most `maxTokens` padded tokens.
 */
export function planBatches(lengths: readonly number[], limits: BatchLimits): BatchPlan {
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]! || a - b);
  const sorted = order.map((index) => lengths[index]!);
  // cost[i]: cheapest plan for the i shortest inputs; from[i]: where its last run starts.
  const cost = new Float64Array(sorted.length + 1);
  const from = new Int32Array(sorted.length + 1);
  for (let end = 1; end <= sorted.length; end++) {
    const longest = sorted[end - 1]!;
    cost[end] = Infinity;
    for (let start = end - 1; start >= Math.max(0, end - limits.maxBatch); start--) {
      const rows = end - start;
      if (rows > 1 && rows * longest > limits.maxTokens) break;
      const total = cost[start]! + rows * longest + limits.runCost;
      if (total < cost[end]!) [cost[end], from[end]] = [total, start];
    }
  }
  const batches: number[][] = [];
  let paddedTokens = 0;
  for (let end = sorted.length; end > 0; end = from[end]!) {
    batches.unshift(order.slice(from[end], end));
    paddedTokens += (end - from[end]!) * sorted[end - 1]!;
  }
  return { batches, tokens: sorted.reduce((sum, n) => sum + n, 0), paddedTokens };
}
