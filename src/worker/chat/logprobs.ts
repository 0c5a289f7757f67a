import type { TokenLogprob } from '../../protocol/chat';
import type { TextTokenizer } from '../../common/text/tokenizer';

/** A token as OpenAI's logprobs name it: its text, and its own UTF-8 bytes. */
export interface TokenPiece {
  token: string;
  bytes: number[];
}

const utf8 = new TextEncoder();
const strict = new TextDecoder('utf-8', { fatal: true });

/** How many earlier tokens give a token its text (SentencePiece spaces, byte sequences). */
const TEXT_CONTEXT = 6;

/**
 * Bytes that are not whole characters, named as OpenAI names them: `bytes:` and each byte as `\xNN`
 * (a token that holds part of a character).
 */
function named(bytes: Uint8Array): TokenPiece {
  const list = Array.from(bytes);
  try {
    return { token: strict.decode(bytes), bytes: list };
  } catch {
    return { token: `bytes:${list.map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`).join('')}`, bytes: list };
  }
}

/**
 * Each generated token's text and bytes where it stands, so that the tokens' bytes joined are the
 * answer's bytes. A token among whole characters: the decoded text of the last few tokens with it,
 * minus without it (decoding it alone would lose a SentencePiece leading space). Around a
 * character split over tokens: the token's own bytes from the vocabulary.
 */
export class TokenTexts {
  private readonly recent: number[] = [];
  private before = '';

  constructor(private readonly tokenizer: Pick<TextTokenizer, 'decode' | 'tokenBytes'>) {}

  /** The piece `id` would add after the tokens pushed so far (the chosen token or an alternative). */
  of(id: number): TokenPiece {
    const after = this.tokenizer.decode([...this.recent, id]);
    const whole = !this.before.endsWith('\uFFFD') && !after.endsWith('\uFFFD') && after.startsWith(this.before);
    if (whole) {
      const token = after.slice(this.before.length);
      return { token, bytes: Array.from(utf8.encode(token)) };
    }
    const own = this.tokenizer.tokenBytes(id);
    if (own) return named(own);
    let same = 0;
    while (same < this.before.length && this.before[same] === after[same]) same++;
    const token = after.slice(same);
    return { token, bytes: Array.from(utf8.encode(token)) };
  }

  push(id: number): void {
    this.recent.push(id);
    if (this.recent.length > TEXT_CONTEXT) this.recent.shift();
    this.before = this.tokenizer.decode(this.recent);
  }
}

/** Log-probabilities of the chosen token and the `top` likeliest, from logits (log-softmax). */
export function tokenLogprob(
  logits: Float32Array,
  chosen: number,
  top: number,
  piece: (id: number) => TokenPiece,
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
    const { token, bytes } = piece(id);
    return { token, logprob: Math.max(logits[id]! - norm, -9999), bytes };
  };
  return { ...entry(chosen), top_logprobs: best.map(entry) };
}

/** Adds OpenAI's `logit_bias` (token id → −100…100) to the logits. */
export function applyBias(logits: Float32Array, bias: [number, number][]): void {
  for (const [id, value] of bias) logits[id]! += value;
}
