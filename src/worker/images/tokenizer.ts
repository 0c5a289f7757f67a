import { Tokenizer } from '@huggingface/tokenizers';
import { tokenText } from '../../common/text/tokenizer';

/**
 * CLIP's prompt tokenization as diffusers feeds it: <|startoftext|> … <|endoftext|>, truncated to
 * model_max_length (77) keeping the end token, padded to that length with the pad token.
 */
export class PromptTokenizer {
  private readonly tokenizer: Tokenizer;
  private readonly maxLength: number;
  private readonly padId: number;

  constructor(tokenizerJson: object, config: Record<string, unknown>) {
    this.tokenizer = new Tokenizer(tokenizerJson, config);
    this.maxLength = Math.min(77, Number(config.model_max_length ?? 77));
    const pad = tokenText(config.pad_token) ?? tokenText(config.eos_token) ?? '<|endoftext|>';
    const padId = this.tokenizer.token_to_id(pad);
    if (padId === undefined) throw new Error(`The tokenizer has no pad token ${pad}.`);
    this.padId = padId;
  }

  encode(prompt: string): number[] {
    const ids = this.tokenizer.encode(prompt).ids;
    const kept = ids.length > this.maxLength ? [...ids.slice(0, this.maxLength - 1), ids[ids.length - 1]!] : ids;
    return [...kept, ...Array<number>(this.maxLength - kept.length).fill(this.padId)];
  }
}
