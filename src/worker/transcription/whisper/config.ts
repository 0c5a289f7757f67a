import { WHISPER_LANGUAGES } from '../../../catalogue/languages/whisper';

export type Json = Record<string, unknown>;

/** The token ids generation steers by, read from the tokenizer so any vocabulary works. */
export interface WhisperIds {
  eot: number;
  sot: number;
  translate: number;
  transcribe: number;
  startOfPrev: number;
  noSpeech: number | undefined;
  noTimestamps: number;
  /** `<|0.00|>`; timestamp i is timestampBegin + i, 0.02 s apart. */
  timestampBegin: number;
}

export interface WhisperConfig {
  ids: WhisperIds;
  /** Language code → its token id, for the languages this vocabulary has. */
  languages: Map<string, number>;
  suppressTokens: number[];
  beginSuppressTokens: number[];
  /** Longest token sequence, prompt included (448). */
  maxLength: number;
  /** Latest first timestamp, in timestamp steps; none when the generation config gives none. */
  maxInitialTimestampIndex: number | undefined;
  decoderLayers: number;
  heads: number;
  headDim: number;
  melBins: number;
}

const numbers = (value: unknown): number[] =>
  Array.isArray(value) ? value.filter((v): v is number => typeof v === 'number') : [];

function required(tokenId: (token: string) => number | undefined, ...tokens: string[]): number {
  for (const token of tokens) {
    const id = tokenId(token);
    if (id !== undefined) return id;
  }
  throw new Error(`The Whisper tokenizer has no ${tokens.join(' or ')} token.`);
}

/** Reads config.json, generation_config.json and the tokenizer's special tokens. */
export function readWhisperConfig(
  config: Json,
  generation: Json | undefined,
  tokenId: (token: string) => number | undefined,
): WhisperConfig {
  const gen = generation ?? {};
  const noTimestamps = required(tokenId, '<|notimestamps|>');
  const dModel = Number(config.d_model);
  const heads = Number(config.decoder_attention_heads);
  const languages = new Map<string, number>();
  for (const [code] of WHISPER_LANGUAGES) {
    const id = tokenId(`<|${code}|>`);
    if (id !== undefined) languages.set(code, id);
  }
  return {
    ids: {
      eot: required(tokenId, '<|endoftext|>'),
      sot: required(tokenId, '<|startoftranscript|>'),
      translate: required(tokenId, '<|translate|>'),
      transcribe: required(tokenId, '<|transcribe|>'),
      startOfPrev: required(tokenId, '<|startofprev|>'),
      noSpeech: tokenId('<|nospeech|>') ?? tokenId('<|nocaptions|>'),
      noTimestamps,
      timestampBegin: noTimestamps + 1,
    },
    languages,
    suppressTokens: numbers(gen.suppress_tokens ?? config.suppress_tokens),
    beginSuppressTokens: numbers(gen.begin_suppress_tokens ?? config.begin_suppress_tokens),
    maxLength: Number(gen.max_length ?? config.max_target_positions ?? 448),
    maxInitialTimestampIndex:
      typeof gen.max_initial_timestamp_index === 'number' ? gen.max_initial_timestamp_index : undefined,
    decoderLayers: Number(config.decoder_layers),
    heads,
    headDim: dModel / heads,
    melBins: Number(config.num_mel_bins ?? 80),
  };
}
