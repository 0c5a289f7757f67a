import { Tokenizer } from '@huggingface/tokenizers';
import { tokenText } from '../../common/text/tokenizer';

/** Token ids of one input after truncation, and whether truncation cut it. */
export interface TokenizedInput {
  ids: number[];
  truncated: boolean;
}

/**
 * An encoder's tokenizer.json with its post-processor's special tokens ([CLS] … [SEP], <s> … </s>)
 * around every input, truncated to `maxLength` tokens as Hugging Face truncates: the text's tokens
 * are cut, the special tokens kept.
 */
export class EncoderTokenizer {
  private readonly tokenizer: Tokenizer;
  private readonly lead: number[];
  private readonly trail: number[];
  readonly padId: number;
  /** Entries of the vocabulary, added tokens included (token-array inputs must stay below it). */
  readonly vocabSize: number;

  constructor(
    tokenizerJson: object,
    config: Record<string, unknown>,
    readonly maxLength: number,
  ) {
    this.tokenizer = new Tokenizer(tokenizerJson, config);
    [this.lead, this.trail] = this.specialsAround();
    this.padId = this.tokenizer.token_to_id(tokenText(config.pad_token) ?? '') ?? 0;
    this.vocabSize = vocabularySize(tokenizerJson);
    if (maxLength <= this.lead.length + this.trail.length)
      throw new Error(`A maximum length of ${maxLength} tokens leaves no room for text.`);
  }

  /** The ids the post-processor puts before and after a text, found around a probe word. */
  private specialsAround(): [number[], number[]] {
    const probe = 'a';
    const bare = this.tokenizer.encode(probe, { add_special_tokens: false }).ids;
    const full = this.tokenizer.encode(probe, { add_special_tokens: true }).ids;
    for (let start = 0; start + bare.length <= full.length; start++) {
      if (bare.every((id, i) => full[start + i] === id)) return [full.slice(0, start), full.slice(start + bare.length)];
    }
    return [[], []];
  }

  /** Tokens of a text without special tokens and untruncated (what the chunker counts). */
  count(text: string): number {
    return this.tokenizer.encode(text, { add_special_tokens: false }).ids.length;
  }

  encode(text: string): TokenizedInput {
    return this.wrap(this.tokenizer.encode(text, { add_special_tokens: false }).ids);
  }

  /** Special tokens around ids given by the caller (token-array inputs), truncated like text. */
  wrap(ids: readonly number[]): TokenizedInput {
    const room = this.maxLength - this.lead.length - this.trail.length;
    return { ids: [...this.lead, ...ids.slice(0, room), ...this.trail], truncated: ids.length > room };
  }
}

/** Size of a tokenizer.json vocabulary: the model's entries (object or [piece, score] list) and added tokens. */
function vocabularySize(json: object): number {
  const { model, added_tokens: added = [] } = json as { model?: { vocab?: unknown }; added_tokens?: { id: number }[] };
  const vocab = model?.vocab;
  const entries = Array.isArray(vocab)
    ? vocab.length
    : vocab && typeof vocab === 'object'
      ? Math.max(-1, ...Object.values(vocab as Record<string, number>)) + 1
      : 0;
  return Math.max(entries, ...added.map((token) => token.id + 1));
}
