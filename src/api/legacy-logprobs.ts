import type { TokenLogprob } from '../protocol/chat';

/** OpenAI's legacy completions `logprobs`: parallel lists, with each token's offset in the answer's text. */
export interface LegacyLogprobs {
  tokens: string[];
  token_logprobs: number[];
  top_logprobs: Record<string, number>[];
  text_offset: number[];
}

/** The legacy shape of `tokens`, the first of which starts at `offset` in the answer's text. */
export function legacyLogprobs(tokens: TokenLogprob[], offset: number): LegacyLogprobs {
  const out: LegacyLogprobs = { tokens: [], token_logprobs: [], top_logprobs: [], text_offset: [] };
  for (const token of tokens) {
    out.tokens.push(token.token);
    out.token_logprobs.push(token.logprob);
    out.top_logprobs.push(Object.fromEntries(token.top_logprobs.map((top) => [top.token, top.logprob])));
    out.text_offset.push(offset);
    offset += token.token.length;
  }
  return out;
}
