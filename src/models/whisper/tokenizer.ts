import { Tokenizer } from '@huggingface/tokenizers';

/** Whisper's tokenizer.json: text to ids for prompts, text tokens back to text, special tokens by name. */
export class WhisperTokenizer {
  private readonly tokenizer: Tokenizer;

  constructor(tokenizerJson: object, tokenizerConfig: Record<string, unknown>) {
    this.tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
  }

  encode(text: string): number[] {
    return this.tokenizer.encode(text, { add_special_tokens: false }).ids;
  }

  decode(ids: number[]): string {
    return ids.length ? this.tokenizer.decode(ids, { skip_special_tokens: false }) : '';
  }

  id(token: string): number | undefined {
    return this.tokenizer.token_to_id(token) ?? undefined;
  }
}
