import type { TokenLogprob } from '../../protocol/chat';

const utf8 = new TextEncoder();

/** Log-probabilities of the chosen token and the `top` likeliest, from logits (log-softmax). */
export function tokenLogprob(
  logits: Float32Array,
  chosen: number,
  top: number,
  text: (id: number) => string,
): TokenLogprob {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i++) if (logits[i]! > max) max = logits[i]!;
  let sum = 0;
  for (let i = 0; i < logits.length; i++) sum += Math.exp(logits[i]! - max);
  const norm = max + Math.log(sum);
  const best: number[] = [];
  for (let i = 0; top > 0 && i < logits.length; i++) {
    if (best.length === top && logits[i]! <= logits[best[top - 1]!]!) continue;
    let at = best.length === top ? top - 1 : best.length;
    while (at > 0 && logits[best[at - 1]!]! < logits[i]!) {
      best[at] = best[at - 1]!;
      at--;
    }
    best[at] = i;
  }
  const entry = (id: number) => {
    const token = text(id);
    return { token, logprob: Math.max(logits[id]! - norm, -9999), bytes: Array.from(utf8.encode(token)) };
  };
  return { ...entry(chosen), top_logprobs: best.map(entry) };
}

/** Adds OpenAI's `logit_bias` (token id → −100…100) to the logits. */
export function applyBias(logits: Float32Array, bias: [number, number][]): void {
  for (const [id, value] of bias) logits[id]! += value;
}
