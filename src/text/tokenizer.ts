import { Tokenizer } from '@huggingface/tokenizers';

/** tokenizer_config.json as read (only a few fields matter here). */
export type TokenizerConfig = Record<string, unknown>;

/** A token as tokenizer_config writes it: a string, or an AddedToken object with `content`. */
export const tokenText = (value: unknown): string | undefined =>
  typeof value === 'string'
    ? value
    : typeof value === 'object' && value !== null && typeof (value as { content?: unknown }).content === 'string'
      ? (value as { content: string }).content
      : undefined;

/** A model's tokenizer (tokenizer.json + tokenizer_config.json) with the few calls generation needs. */
export class TextTokenizer {
  private readonly tokenizer: Tokenizer;
  readonly bosToken: string | undefined;
  readonly eosToken: string | undefined;

  constructor(
    tokenizerJson: object,
    readonly config: TokenizerConfig,
  ) {
    this.tokenizer = new Tokenizer(tokenizerJson, config);
    this.bosToken = tokenText(config.bos_token);
    this.eosToken = tokenText(config.eos_token);
  }

  /** Ids of a rendered chat prompt; the template already wrote any special tokens. */
  encode(text: string): number[] {
    return this.tokenizer.encode(text, { add_special_tokens: false }).ids;
  }

  /** Ids of raw text, with the tokenizer's own special tokens (e.g. Llama's BOS) as its post-processor adds them. */
  encodeRaw(text: string): number[] {
    return this.tokenizer.encode(text).ids;
  }

  /** Text of generated ids, without special tokens such as eos. */
  decode(ids: number[]): string {
    return ids.length ? this.tokenizer.decode(ids, { skip_special_tokens: true }) : '';
  }

  id(token: string | undefined): number | undefined {
    return token === undefined ? undefined : this.tokenizer.token_to_id(token);
  }
}
