/** What generation needs from config.json, generation_config.json and tokenizer_config.json. */
export interface LlmConfig {
  /** Prompt plus completion tokens the model can attend to. */
  contextLength: number;
  /** Tokens that end generation. */
  eosIds: number[];
  kvHeads?: number;
  headDim?: number;
  /** Rows of the logits (config.json's `vocab_size`, genai_config.json's). */
  vocabSize?: number;
}

export type Json = Record<string, unknown>;

const ids = (value: unknown): number[] =>
  typeof value === 'number'
    ? [value]
    : Array.isArray(value)
      ? value.filter((v): v is number => typeof v === 'number')
      : [];

const count = (value: unknown): number | undefined =>
  typeof value === 'number' && value > 0 && value < 1e8 ? value : undefined;

const DEFAULT_CONTEXT = 2048;

export interface ConfigFiles {
  config?: Json;
  /** onnxruntime-genai's genai_config.json, used when there is no config.json. */
  genai?: Json;
  generation?: Json;
  tokenizerConfig: Json;
  /** The tokenizer's id for its eos token. */
  eosTokenId?: number;
}

export function readConfig(files: ConfigFiles): LlmConfig {
  const config = files.config ?? {};
  const text = (config.text_config as Json | undefined) ?? config;
  const genai = ((files.genai?.model as Json | undefined) ?? {}) as Json;
  const decoder = (genai.decoder as Json | undefined) ?? {};
  const heads = count(text.num_attention_heads) ?? count(decoder.num_attention_heads);
  const hidden = count(text.hidden_size) ?? count(decoder.hidden_size);
  const eos = new Set([...ids(files.generation?.eos_token_id), ...ids(text.eos_token_id), ...ids(files.eosTokenId)]);
  return {
    contextLength:
      count(text.max_position_embeddings) ??
      count(genai.context_length) ??
      count(files.tokenizerConfig.model_max_length) ??
      DEFAULT_CONTEXT,
    eosIds: [...eos],
    kvHeads: count(text.num_key_value_heads) ?? count(decoder.num_key_value_heads) ?? heads,
    headDim: count(text.head_dim) ?? count(decoder.head_size) ?? (heads && hidden ? hidden / heads : undefined),
    vocabSize: count(text.vocab_size) ?? count(genai.vocab_size),
  };
}
