/** How an encoder turns token states into one vector, read from the model's files. */
export type Pooling = 'mean' | 'cls' | 'last';

/** Per-model settings that win over what the files say. */
export interface EncoderOverride {
  pooling?: Pooling;
  normalize?: boolean;
  /** Longest input in tokens, specials included. */
  maxLength?: number;
  /** Text put before inputs by purpose (e5: { query: 'query: ', passage: 'passage: ' }). */
  prefixes?: Partial<Record<PromptKind, string>>;
}

export type PromptKind = 'query' | 'passage';

export interface EncoderConfig {
  pooling: Pooling;
  normalize: boolean;
  maxLength: number;
  prefixes: Record<PromptKind, string>;
  /** config.json hidden_size, when given. */
  hiddenSize?: number;
}

type Json = Record<string, unknown>;

/** The model's files that shape pooling, normalisation, length and prompts (all optional). */
export interface EncoderFiles {
  config?: Json;
  tokenizerConfig?: Json;
  /** 1_Pooling/config.json (or the folder modules.json names). */
  pooling?: Json;
  modules?: Json[];
  /** sentence_bert_config.json */
  sentenceBert?: Json;
  /** config_sentence_transformers.json */
  sentenceTransformers?: Json;
}

const positive = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 && value < 1e7 ? value : undefined;

function poolingOf(files: EncoderFiles): Pooling {
  const p = files.pooling;
  if (p?.pooling_mode_cls_token) return 'cls';
  if (p?.pooling_mode_lasttoken) return 'last';
  if (p?.pooling_mode_mean_tokens) return 'mean';
  // No sentence-transformers files: decoder embedders pool the last token, encoders the mean.
  const type = String(files.config?.model_type ?? '');
  return /^(qwen|llama|mistral|gemma)/.test(type) ? 'last' : 'mean';
}

function maxLengthOf(files: EncoderFiles): number {
  const config = files.config ?? {};
  // XLM-R's position table keeps padding_idx + 1 rows before the first position.
  const offset = String(config.model_type ?? '').includes('roberta') ? 2 : 0;
  const positions = positive(config.max_position_embeddings);
  const limits = [
    positive(files.sentenceBert?.max_seq_length),
    positive(files.tokenizerConfig?.model_max_length),
    positions && positions - offset,
  ].filter((value): value is number => value !== undefined);
  return limits.length ? Math.min(...limits) : 512;
}

function promptsOf(files: EncoderFiles): Partial<Record<PromptKind, string>> {
  const prompts = (files.sentenceTransformers?.prompts ?? {}) as Record<string, unknown>;
  const text = (...names: string[]) =>
    names.map((name) => prompts[name]).find((v) => typeof v === 'string') as string | undefined;
  const query = text('query', 'search_query');
  const passage = text('passage', 'document', 'search_document');
  return { ...(query !== undefined ? { query } : {}), ...(passage !== undefined ? { passage } : {}) };
}

/** Pooling, normalisation, length and prefixes from the files, then the override on top. */
export function readEncoderConfig(files: EncoderFiles, override: EncoderOverride = {}): EncoderConfig {
  const normalize = files.modules
    ? files.modules.some((module) => String(module.type ?? '').endsWith('Normalize'))
    : true;
  const prompts = { ...promptsOf(files), ...override.prefixes };
  return {
    pooling: override.pooling ?? poolingOf(files),
    normalize: override.normalize ?? normalize,
    maxLength: override.maxLength ?? maxLengthOf(files),
    prefixes: { query: prompts.query ?? '', passage: prompts.passage ?? '' },
    hiddenSize: positive(files.config?.hidden_size),
  };
}

/** Where modules.json puts the pooling config ('1_Pooling' by default). */
export function poolingFolder(modules: Json[] | undefined): string {
  const module = modules?.find((entry) => String(entry.type ?? '').endsWith('Pooling'));
  return typeof module?.path === 'string' && module.path ? module.path : '1_Pooling';
}
