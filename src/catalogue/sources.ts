import type { ModelSource, SpeechRecognitionSource, VaaniOptions } from '../protocol/options';

export const DEFAULT_HOST = 'https://huggingface.co';

/**
 * The base URL a model's files are fetched under: `{host}/{repo}/resolve/{revision}/` for a hub repo,
 * else the source's baseURL (absolute, or a same-origin path resolved against the page).
 */
export function sourceBase(source: ModelSource, pageHref = globalThis.location?.href): string {
  if (source.baseURL) return new URL(source.baseURL.replace(/\/?$/, '/'), pageHref).href;
  if (!source.repo) throw new Error('A model source needs a repo or a baseURL.');
  const host = (source.host ?? DEFAULT_HOST).replace(/\/+$/, '');
  return `${host}/${source.repo}/resolve/${source.revision ?? 'main'}/`;
}

/**
 * Where catalogue models come from by default (people with network): public onnx-community
 * exports of Qwen3, which covers Hindi, Bengali, Tamil, Telugu, Marathi, Gujarati and other Indian
 * languages among its 119. Apache-2.0. `createVaani({ models: { id: source } })` overrides any of them.
 */
export const DEFAULT_SOURCES: Record<string, ModelSource> = {
  'chat-v2': { repo: 'onnx-community/Qwen3-0.6B-ONNX' },
  'chat-v2-pro': { repo: 'onnx-community/Qwen3-1.7B-ONNX' },
  /** Qwen2.5-Coder 0.5B Instruct (Apache-2.0): explain, debug, optimise; the agent loop's tool calls. */
  'code-v1': { repo: 'onnx-community/Qwen2.5-Coder-0.5B-Instruct' },
  /** The base model (Apache-2.0), trained on fill-in-the-middle: code-v1's `complete` mode. */
  'code-v1-base': { repo: 'onnx-community/Qwen2.5-Coder-0.5B' },
  /** agent-v1: Qwen3 0.6B, the chat model, whose template teaches Hermes tool calls (SHARED_FILES). */
  'agent-v1': { repo: 'onnx-community/Qwen3-0.6B-ONNX' },
  /** Whisper base (multilingual, Hindi and 10 more Indian languages; q8: 23 MB encoder + 54 MB decoder). */
  'speech-stt-v1': { repo: 'onnx-community/whisper-base' },
  /** multilingual-e5-small (MIT, 384 dimensions, ~94 languages; q8 ≈ 118 MB): mean pooling, e5's prefixes. */
  'embed-v1': {
    repo: 'Xenova/multilingual-e5-small',
    embedding: { prefixes: { query: 'query: ', passage: 'passage: ' } },
  },
};

/**
 * Ids that are another id's model (the same default source): they read that id's files — its folder,
 * baseURL or repo from `createVaani({ models })`, one copy in the cache, one engine — unless their
 * own `models` entry names a repo or baseURL.
 */
export const SHARED_FILES: Readonly<Record<string, string>> = { 'agent-v1': 'chat-v2' };

const hasLocation = (source: ModelSource) => Boolean(source.repo || source.baseURL);

/** The id whose files `id` reads: the id it shares them with unless its own entry names a location (SHARED_FILES). */
export function filesOwner(id: string, overrides: Record<string, ModelSource> = {}): string {
  const owner = SHARED_FILES[id];
  const own = overrides[id];
  return owner && !(own && hasLocation(own)) ? owner : id;
}

/**
 * The source configured for a model: its own `models` entry, or the entry of the id whose files it
 * reads (with its own settings such as `dtype` over it); undefined when neither is configured.
 */
export function configuredSource(id: string, overrides: Record<string, ModelSource> = {}): ModelSource | undefined {
  const owner = filesOwner(id, overrides);
  const own = overrides[id];
  const shared = owner === id ? undefined : overrides[owner];
  return shared && own ? { ...shared, ...own } : (shared ?? own);
}

/** A model's source: the configured one (merged over the default, so `{ dtype }` alone works), else the default. */
export function modelSource(id: string, overrides: Record<string, ModelSource> = {}): ModelSource {
  const configured = configuredSource(id, overrides);
  const fallback = DEFAULT_SOURCES[id];
  if (!configured) {
    if (!fallback) throw new Error(`No source is known for model '${id}'.`);
    return fallback;
  }
  return hasLocation(configured) ? configured : { ...fallback, ...configured };
}

/**
 * IndicConformer 600M (AI4Bharat, MIT), the 22 scheduled languages: on WASM an int8 copy of the
 * encoder (ONNX Runtime dynamic quantisation, 882 MB, self-contained, CTC only); on WebGPU AI4Bharat's
 * own fp32 export (2.4 GB in external-data files, CTC and RNN-T).
 */
export const INDIC_SOURCES: Record<'int8' | 'fp32', ModelSource> = {
  int8: { repo: 'Rstc989/Vaanilipi', dtype: 'int8' },
  fp32: { repo: 'ai4bharat/indic-conformer-600m-multilingual', dtype: 'fp32' },
};

export interface SpeechRecognitionSources {
  whisper: ModelSource;
  /** Absent when IndicConformer is turned off. */
  indic?: ModelSource & { decoding?: 'ctc' | 'rnnt' };
  languages: Record<string, 'indic-conformer' | 'whisper'>;
}

/** The two families' sources of speech-stt-v1 from `createVaani({ models })`, defaults filled in. */
export function speechRecognitionSources(options: Pick<VaaniOptions, 'models' | 'backend'>): SpeechRecognitionSources {
  const {
    whisper,
    indic,
    languages = {},
    ...flat
  } = (options.models?.['speech-stt-v1'] ?? {}) as SpeechRecognitionSource;
  const fallbackWhisper = DEFAULT_SOURCES['speech-stt-v1']!;
  const whisperOverride = whisper ?? (Object.keys(flat).length ? flat : undefined);
  const indicDefault = INDIC_SOURCES[options.backend === 'webgpu' ? 'fp32' : 'int8'];
  return {
    whisper: !whisperOverride
      ? fallbackWhisper
      : hasLocation(whisperOverride)
        ? whisperOverride
        : { ...fallbackWhisper, ...whisperOverride },
    indic:
      indic === false
        ? undefined
        : indic === true || indic === undefined
          ? indicDefault
          : hasLocation(indic)
            ? indic
            : { ...indicDefault, ...indic },
    languages,
  };
}
