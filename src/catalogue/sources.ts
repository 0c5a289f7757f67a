import type { ModelSource, SpeechRecognitionSource, VaaniOptions } from '../protocol/options';
import { MODEL_TABLE, modelsOf, sourceOf, UNPINNED } from './families';
import { SHRUTI_CODES, shrutiSource } from './shruti';

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
 * Ids that are another id's model (the same default source): they read that id's files — its folder,
 * baseURL or repo from `createVaani({ models })`, one copy in the cache, one engine — unless their
 * own `models` entry names a repo or baseURL. From the family table's `sharesFilesWith`.
 */
export const SHARED_FILES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(MODEL_TABLE).flatMap(([id, entry]) => (entry.sharesFilesWith ? [[id, entry.sharesFilesWith]] : [])),
);

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
  const fallback = sourceOf(id);
  if (!configured) {
    if (!fallback) throw new Error(`No source is known for model '${id}'.`);
    return fallback;
  }
  return hasLocation(configured) ? configured : { ...fallback, ...configured };
}

/**
 * The commit of AI4Bharat's IndicConformer repo that the WebGPU default and `vaani pull speech-stt-v1
 * --indic --int8` read. No published record of its commits could be found and the hub was not
 * reachable where this was written, so it is `main` (trust on first use): replace it with the
 * commit `vaani pull … --indic --int8` records in its manifest (`source.revision`); the hub then
 * states each file's size and SHA-256 at that commit (its LFS listing and X-Linked headers).
 */
export const AI4BHARAT_INDIC_REVISION: string = UNPINNED;

/**
 * IndicConformer 600M (AI4Bharat, MIT), the 22 scheduled languages: on WASM an int8 copy of the
 * encoder (ONNX Runtime dynamic quantisation, 882 MB, self-contained, CTC only); on WebGPU AI4Bharat's
 * own fp32 export (2.4 GB in external-data files, CTC and RNN-T).
 */
export const INDIC_SOURCES: Record<'int8' | 'fp32', ModelSource> = {
  int8: { repo: 'Rstc989/Vaanilipi', revision: UNPINNED, dtype: 'int8' },
  fp32: { repo: 'ai4bharat/indic-conformer-600m-multilingual', revision: AI4BHARAT_INDIC_REVISION, dtype: 'fp32' },
};

/**
 * What the default IndicConformer sources download (rounded, every file the engine reads): the
 * int8 encoder and the CTC head on WASM; AI4Bharat's fp32 encoder, CTC and RNN-T graphs on WebGPU.
 */
export const INDIC_DOWNLOAD: Record<'int8' | 'fp32', { bytes: number; from: string }> = {
  int8: { bytes: 905e6, from: 'the catalogue (rounded): int8 encoder 882 MB + CTC head 23 MB' },
  fp32: { bytes: 2.49e9, from: "the catalogue (rounded): AI4Bharat's fp32 encoder ≈ 2.4 GB + 90 MB RNN-T graphs" },
};

export interface SpeechRecognitionSources {
  whisper: ModelSource;
  /** Absent when IndicConformer is turned off. */
  indic?: ModelSource & { decoding?: 'ctc' | 'rnnt' };
  languages: Record<string, 'indic-conformer' | 'whisper' | 'shruti'>;
  /** The compact per-language models by language code (catalogue folders, each overridable); empty when turned off. */
  shruti: Record<string, ModelSource & { folder?: string }>;
}

/** The two families' sources of a transcription id from `createVaani({ models })`, defaults filled in. */
export function speechRecognitionSources(
  options: Pick<VaaniOptions, 'models' | 'backend'>,
  id: string = modelsOf('transcription')[0]!,
): SpeechRecognitionSources {
  const { whisper, indic, shruti, languages = {}, ...flat } = (options.models?.[id] ?? {}) as SpeechRecognitionSource;
  const fallbackWhisper = sourceOf(id)!;
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
    shruti: shruti === false ? {} : shrutiSources(shruti ?? {}),
  };
}

/**
 * The source whose files `ai.models.load(id)` and `ai.models.import(id)` read: a transcription id's
 * Whisper model (its `whisper` entry when the app names one apart), else the model's own source.
 */
export function filesSource(id: string, options: Pick<VaaniOptions, 'models' | 'backend'>): ModelSource {
  return (modelsOf('transcription') as readonly string[]).includes(id)
    ? speechRecognitionSources(options, id).whisper
    : modelSource(id, options.models);
}

/** The catalogue's Shruti folders, with a page's per-language sources over them (a new language needs a location). */
function shrutiSources(given: Record<string, ModelSource>): Record<string, ModelSource & { folder?: string }> {
  const out: Record<string, ModelSource & { folder?: string }> = {};
  for (const code of new Set([...SHRUTI_CODES, ...Object.keys(given)])) {
    const own = given[code];
    const fallback = SHRUTI_CODES.includes(code) ? shrutiSource(code) : undefined;
    if (own && hasLocation(own)) out[code] = own;
    else if (fallback) out[code] = { ...fallback, ...own };
  }
  return out;
}
