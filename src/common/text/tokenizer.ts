import { Tokenizer, type AddedToken } from '@huggingface/tokenizers';

/** tokenizer_config.json as read (only a few fields matter here). */
export type TokenizerConfig = Record<string, unknown>;

/** A token as tokenizer_config writes it: a string, or an AddedToken object with `content`. */
export const tokenText = (value: unknown): string | undefined =>
  typeof value === 'string'
    ? value
    : typeof value === 'object' && value !== null && typeof (value as { content?: unknown }).content === 'string'
      ? (value as { content: string }).content
      : undefined;

/** Byte-level BPE's alphabet (GPT-2, Qwen, Llama 3): the character that stands for each byte in its vocabulary. */
const BYTE_OF_CHAR: ReadonlyMap<string, number> = (() => {
  const map = new Map<string, number>();
  let extra = 0;
  for (let byte = 0; byte < 256; byte++) {
    const printable = (byte >= 0x21 && byte <= 0x7e) || (byte >= 0xa1 && byte <= 0xac) || byte >= 0xae;
    map.set(String.fromCodePoint(printable ? byte : 256 + extra++), byte);
  }
  return map;
})();

interface DecoderJson {
  type?: string;
  decoders?: DecoderJson[];
}

/** The decoder steps of tokenizer.json (a Sequence flattened). */
const decoderSteps = (decoder: DecoderJson | null | undefined): string[] =>
  !decoder ? [] : decoder.type === 'Sequence' ? (decoder.decoders ?? []).flatMap(decoderSteps) : [decoder.type ?? ''];

const utf8 = new TextEncoder();

/** A model's tokenizer (tokenizer.json + tokenizer_config.json) with the few calls generation needs. */
export class TextTokenizer {
  private readonly tokenizer: Tokenizer;
  private readonly added: Map<number, AddedToken>;
  private readonly byteLevel: boolean;
  private readonly byteFallback: boolean;
  readonly bosToken: string | undefined;
  readonly eosToken: string | undefined;

  constructor(
    tokenizerJson: object,
    readonly config: TokenizerConfig,
  ) {
    this.tokenizer = new Tokenizer(tokenizerJson, config);
    this.added = this.tokenizer.get_added_tokens_decoder();
    const steps = decoderSteps((tokenizerJson as { decoder?: DecoderJson }).decoder);
    this.byteLevel = steps.includes('ByteLevel');
    this.byteFallback = steps.includes('ByteFallback');
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

  /**
   * A token's own bytes where the vocabulary spells them whatever its neighbours: every token of a
   * byte-level BPE (part of a character or several), a byte-fallback `<0xNN>` token, an added token
   * (none for a special one, as decoding skips it). Undefined for other tokens (SentencePiece pieces,
   * whose leading space depends on their place).
   */
  tokenBytes(id: number): Uint8Array | undefined {
    const added = this.added.get(id);
    if (added) return added.special ? new Uint8Array() : utf8.encode(added.content);
    const token = this.tokenizer.id_to_token(id);
    if (token === undefined) return undefined;
    const fallback = this.byteFallback ? /^<0x([0-9A-Fa-f]{2})>$/.exec(token) : null;
    if (fallback) return Uint8Array.of(parseInt(fallback[1]!, 16));
    if (!this.byteLevel) return undefined;
    const bytes: number[] = [];
    for (const char of token) {
      const byte = BYTE_OF_CHAR.get(char);
      if (byte === undefined) return undefined;
      bytes.push(byte);
    }
    return Uint8Array.from(bytes);
  }
}
