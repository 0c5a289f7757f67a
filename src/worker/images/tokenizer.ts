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

const START = '<|startoftext|>';
const END = '<|endoftext|>';

/**
 * CLIP's tokenizer.json (as `openai/clip-vit-large-patch14` ships it) from the slow tokenizer's
 * vocab.json and merges.txt, for exports that carry only those (diffusers' own saves).
 */
export function clipTokenizerJson(vocab: Record<string, unknown>, mergesText: string): object {
  const ids = vocab as Record<string, number>;
  const special = (content: string) => {
    if (ids[content] === undefined) throw new Error(`The tokenizer's vocab.json has no ${content}.`);
    return {
      id: ids[content],
      content,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: true,
      special: true,
    };
  };
  const merges = mergesText.split('\n').filter((line) => line.trim() && !line.startsWith('#version'));
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: [special(START), special(END)],
    normalizer: {
      type: 'Sequence',
      normalizers: [
        { type: 'NFC' },
        { type: 'Replace', pattern: { Regex: '\\s+' }, content: ' ' },
        { type: 'Lowercase' },
      ],
    },
    pre_tokenizer: {
      type: 'Sequence',
      pretokenizers: [
        {
          type: 'Split',
          pattern: {
            Regex:
              "<\\|startoftext\\|>|<\\|endoftext\\|>|'s|'t|'re|'ve|'m|'ll|'d|[\\p{L}]+|[\\p{N}]|[^\\s\\p{L}\\p{N}]+",
          },
          behavior: 'Removed',
          invert: true,
        },
        { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false },
      ],
    },
    post_processor: {
      type: 'RobertaProcessing',
      sep: [END, ids[END]],
      cls: [START, ids[START]],
      trim_offsets: false,
      add_prefix_space: false,
    },
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: END,
      continuing_subword_prefix: '',
      end_of_word_suffix: '</w>',
      fuse_unk: false,
      byte_fallback: false,
      vocab: ids,
      merges,
    },
  };
}
