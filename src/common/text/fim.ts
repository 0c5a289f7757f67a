import type { TextTokenizer } from './tokenizer';

/** Qwen2.5-Coder's (and StarCoder-style) fill-in-the-middle markers, looked up in the tokenizer by text. */
export const FIM_MARKERS = { prefix: '<|fim_prefix|>', suffix: '<|fim_suffix|>', middle: '<|fim_middle|>' } as const;

/** Tokens that end a raw or fill-in-the-middle completion besides the model's eos: the next file, padding, a new FIM turn. */
const FIM_STOPS = ['<|endoftext|>', '<|fim_pad|>', '<|file_sep|>', '<|repo_name|>', ...Object.values(FIM_MARKERS)];

export interface FimTokens {
  prefix: number;
  suffix: number;
  middle: number;
}

/** The tokenizer's FIM token ids, or undefined when it lacks any of them. */
export function fimTokens(tokenizer: Pick<TextTokenizer, 'id'>): FimTokens | undefined {
  const prefix = tokenizer.id(FIM_MARKERS.prefix);
  const suffix = tokenizer.id(FIM_MARKERS.suffix);
  const middle = tokenizer.id(FIM_MARKERS.middle);
  return prefix === undefined || suffix === undefined || middle === undefined ? undefined : { prefix, suffix, middle };
}

/**
 * `<|fim_prefix|>{prefix}<|fim_suffix|>{suffix}<|fim_middle|>` (prefix-suffix-middle order, as
 * Qwen2.5-Coder was trained) as ids: the markers by id, the code encoded without special tokens.
 */
export function fimPrompt(tokenizer: Pick<TextTokenizer, 'encode'>, fim: FimTokens, prefix: string, suffix: string) {
  return [fim.prefix, ...tokenizer.encode(prefix), fim.suffix, ...tokenizer.encode(suffix), fim.middle];
}

/** Ids of the tokens that end a raw completion in this tokenizer (those it has). */
export function rawStopIds(tokenizer: Pick<TextTokenizer, 'id'>): number[] {
  return FIM_STOPS.map((token) => tokenizer.id(token)).filter((id): id is number => id !== undefined);
}
