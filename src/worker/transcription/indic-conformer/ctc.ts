import { pieceOf, type TimedToken } from './tokens';
import type { LanguageVocabulary } from './vocab';

export interface CtcResult {
  tokens: TimedToken[];
  /** Mean log-probability of the best path per frame (over the language's outputs only). */
  avgLogprob: number;
}

/**
 * Greedy CTC over the head's log-probabilities [frames, width] (row-major): each frame's best output
 * among the language's columns, repeats collapsed, blanks dropped; each token keeps the frames it spans.
 */
export function ctcGreedy(logprobs: Float32Array, frames: number, width: number, vocab: LanguageVocabulary): CtcResult {
  const { columns } = vocab;
  const tokens: TimedToken[] = [];
  let current: TimedToken | undefined;
  let currentId = -1;
  let total = 0;
  const close = (frame: number) => {
    if (current) {
      current.end = frame;
      tokens.push(current);
    }
    current = undefined;
  };
  for (let t = 0; t < frames; t++) {
    const row = t * width;
    let best = 0;
    let max = -Infinity;
    for (let j = 0; j < columns.length; j++) {
      const value = logprobs[row + columns[j]!]!;
      if (value > max) [max, best] = [value, j];
    }
    // log-softmax over the language's columns, as the reference re-normalises after masking.
    let sum = 0;
    for (let j = 0; j < columns.length; j++) sum += Math.exp(logprobs[row + columns[j]!]! - max);
    total -= Math.log(sum);
    if (best === currentId) continue;
    close(t);
    currentId = best;
    const piece = pieceOf(vocab, best);
    if (piece !== undefined) current = { id: best, piece, start: t, end: t + 1 };
  }
  close(frames);
  return { tokens, avgLogprob: frames > 0 ? total / frames : 0 };
}
