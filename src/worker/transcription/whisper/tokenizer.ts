import { Tokenizer } from '@huggingface/tokenizers';

/** GPT-2's byte-level alphabet read backwards: each printable stand-in character → its byte. */
function byteOfSymbol(): Map<string, number> {
  const map = new Map<string, number>();
  let extra = 0;
  for (let byte = 0; byte < 256; byte++) {
    const printable = (byte >= 33 && byte <= 126) || (byte >= 161 && byte <= 172) || byte >= 174;
    map.set(String.fromCharCode(printable ? byte : 256 + extra++), byte);
  }
  return map;
}

/** Whisper's tokenizer.json: text to ids for prompts, text tokens back to text, special tokens by name. */
export class WhisperTokenizer {
  private readonly tokenizer: Tokenizer;
  private symbols: Map<string, number> | undefined;

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

  /** The bytes a byte-level text token stands for (none when its symbols are outside the byte alphabet). */
  bytes(id: number): number[] {
    this.symbols ??= byteOfSymbol();
    const out: number[] = [];
    for (const symbol of this.tokenizer.id_to_token(id) ?? '') {
      const byte = this.symbols.get(symbol);
      if (byte === undefined) return [];
      out.push(byte);
    }
    return out;
  }
}
