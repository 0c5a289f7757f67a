import type { TokenLogprob } from '../../protocol/chat';

/** OpenAI's legacy completions `logprobs`: parallel lists, with each token's offset in the answer's text. */
export interface LegacyLogprobs {
  tokens: string[];
  token_logprobs: number[];
  top_logprobs: Record<string, number>[];
  text_offset: number[];
}

/**
 * Where each token starts in the answer's text (UTF-16 offsets), counted from its bytes: a token
 * that starts inside a character split over tokens starts where that character does.
 */
export class TextOffsets {
  private readonly decoder = new TextDecoder();

  constructor(private offset: number) {}

  /** The offset of the next token, which then is counted. */
  next(bytes: number[]): number {
    const at = this.offset;
    this.offset += this.decoder.decode(Uint8Array.from(bytes), { stream: true }).length;
    return at;
  }
}

/** The legacy shape of `tokens`, placed by `offsets` (one per answer, across its streamed chunks). */
export function legacyLogprobs(tokens: TokenLogprob[], offsets: TextOffsets): LegacyLogprobs {
  const out: LegacyLogprobs = { tokens: [], token_logprobs: [], top_logprobs: [], text_offset: [] };
  for (const token of tokens) {
    out.tokens.push(token.token);
    out.token_logprobs.push(token.logprob);
    out.top_logprobs.push(Object.fromEntries(token.top_logprobs.map((top) => [top.token, top.logprob])));
    out.text_offset.push(offsets.next(token.bytes));
  }
  return out;
}
