import type { FitOptions } from './fit';
import type { FileSpec } from './weights';
import type { ApproveHook } from './approval';

/** The options of `createVaani` and every type they use: the public configuration. */

/** Who may answer a request: the browser's own model, Vaani's local engines, the remote. */
export type EngineChoice = 'builtin' | 'local' | 'remote';
/** Where a model's requests go: a named policy, or the engines to try in order (`prefer`). */
export type Routing = 'local-first' | 'local-only' | 'remote-first' | 'remote-only' | { prefer: EngineChoice[] };
export type Backend = 'auto' | 'webgpu' | 'wasm';

/** Where a catalogue model's files come from: a hub repo, a base URL, or a same-origin path. */
export interface ModelSource {
  repo?: string;
  revision?: string;
  host?: string;
  baseURL?: string;
  dtype?: string;
  /**
   * The files under the source (names, or specs with size/sha256): lets `ai.models.load` fetch a
   * model no engine lists; for one whose engine lists its files, says which exist (and their sizes).
   */
  files?: (string | FileSpec)[];
  /** Embedding models: settings that win over the model's files (pooling, normalize, maxLength, prefixes, truncatable). */
  embedding?: EmbeddingSettings;
  /**
   * Image models: `sessions` 'resident' keeps every stage's session loaded; 'stagewise' creates each
   * stage's session when a request reaches it and releases it after (one graph in memory at a time,
   * for when memory is short); 'auto' (default) keeps them while the graphs fit. `upscaleMemory`:
   * bytes HD's upscaler may take in one pass (default 256 MiB, estimated from its config.json): an
   * image within it is upscaled in one pass, a larger one in tiles that fit.
   */
  image?: ImageModelSettings;
  /** Chat models: how their decoder runs (`chat.graphCapture`). */
  chat?: ChatModelSettings;
}

/**
 * Chat models' settings (`ModelSource.chat`). `graphCapture`, on WebGPU: each decode step replays
 * one recorded step instead of launching its kernels one by one from the page. Exports whose
 * attention is onnxruntime-genai's fused GroupQueryAttention only (others decode as before, and so
 * does WASM). `true` or the tokens its fixed cache holds (default 4,096, at most the model's own
 * context), which becomes the model's context; a second session of the same graph prefills
 * prompts, so the weights are on the GPU twice. Off by default.
 */
export interface ChatModelSettings {
  graphCapture?: boolean | number;
}

/** Image models' settings (`ModelSource.image`). */
export interface ImageModelSettings {
  sessions?: 'auto' | 'resident' | 'stagewise';
  upscaleMemory?: number;
}

/** Per-model embedding settings; `truncatable` lets `dimensions` shorten vectors (Matryoshka-trained models only). */
export interface EmbeddingSettings {
  pooling?: 'mean' | 'cls' | 'last';
  normalize?: boolean;
  maxLength?: number;
  prefixes?: { query?: string; passage?: string };
  truncatable?: boolean;
}

/**
 * speech-stt-v1's sources: a plain ModelSource is its Whisper model (as before); `whisper` and
 * `indic` set each family (`true`: the default source), `indic: false` turns IndicConformer off, `languages` picks the family per
 * language code over the default (IndicConformer for its 22 languages, Whisper for the rest).
 */
export interface SpeechRecognitionSource extends ModelSource {
  whisper?: ModelSource;
  indic?: IndicSource | boolean;
  /**
   * The compact per-language models (Shruti, sherpa-onnx's Moonshine layout), by language code: a
   * source per language over the catalogue's (`{ ta: { baseURL: '/models/shruti-ta/' } }`), or
   * `false` to turn them off. Used where `languages` (or the small tier) says 'shruti', or a request
   * says `engine: 'shruti'`.
   */
  shruti?: Record<string, ModelSource> | false;
  languages?: Record<string, 'indic-conformer' | 'whisper' | 'shruti'>;
}

/** IndicConformer's source, and its decoding: 'ctc' or 'rnnt'. */
export interface IndicSource extends ModelSource {
  decoding?: 'ctc' | 'rnnt';
}

/** Whether requests must carry `Authorization: Bearer <key>`. */
export type AuthMode = 'required' | 'optional';

export interface VaaniOptions {
  /** Where the service answers; resolved against `location`. Default '/v1'. */
  baseURL?: string;
  /** Whether requests must carry `Authorization: Bearer <key>`. Default 'required'. */
  auth?: AuthMode;
  /** One routing for every model, or one per model id (others stay 'local-first'). */
  routing?: Routing | Record<string, Routing>;
  remote?: RemoteOptions;
  models?: Record<string, ModelSource | SpeechRecognitionSource>;
  /** Which backend local engines use. Default 'auto' (WebGPU when usable, else WASM). */
  backend?: Backend;
  /**
   * WASM threads of the chat and speech-recognition engines, used when the page is cross-origin
   * isolated (otherwise 1). Default: every core, up to 4.
   */
  threads?: number;
  /**
   * One engine per model for every tab and same-origin frame of the site (the first tab to need a
   * model runs it; the others send it their requests). Default true where the browser has
   * SharedWorker and Web Locks; false runs every engine in this tab.
   */
  share?: boolean;
  /**
   * Bytes of model weights the engines running in this tab may hold at once. Past it, the idle
   * engines used least recently are ended (their next request loads the model again; a shared one
   * moves to the next tab that needs it). Default half the device memory the browser reports, at least 1 GiB.
   */
  engineBudget?: number;
  /**
   * Which voices Vaani may pick on its own (the widgets' voice for a language): 'commercial' (the
   * default) only voices whose licence allows commercial use; 'any' every voice. A voice named in a
   * request is spoken whatever its licence (GET /voices lists each one's `license` and `commercial`).
   */
  licences?: 'commercial' | 'any';
  /** Requests that may wait for one engine before new ones get a 429. Default 16. */
  maxQueue?: number;
  /** The weight store: chunk size, download concurrency, retries, byte budget. */
  store?: StoreOptions;
  /** The memory store: its IndexedDB database name (default 'vaani-memory'; one per app or user if you like). */
  memory?: MemoryOptions;
  /**
   * Files and vector stores: their IndexedDB database name (default 'vaani-data'), and whether a
   * file's bytes are kept once it is ingested (default true; false keeps only chunks and vectors).
   */
  data?: DataOptions;
  /**
   * Decides the agent tool calls that need approval (every tool not registered read-only), for
   * runs whose own hook (`ai.fetch(url, { approve })`) did not decide: true runs the call, false
   * denies it, undefined returns an approval request to the app.
   */
  approve?: ApproveHook;
  /**
   * When a model download may start without asking (see FitOptions): by default one over 100 MB on
   * a metered or Save-Data connection, or on a device short of memory, waits for `fit.confirm`
   * (else the remote answers where configured); a model the plan says cannot run here is never
   * downloaded.
   */
  fit?: FitOptions;
}

/** The memory store's options (`VaaniOptions.memory`). */
export interface MemoryOptions {
  /** IndexedDB database name. Default 'vaani-memory'. */
  database?: string;
}

/** The options of files and vector stores (`VaaniOptions.data`). */
export interface DataOptions {
  /** IndexedDB database name. Default 'vaani-data'. */
  database?: string;
  /** Whether a file's bytes are kept once it is ingested. Default true (false keeps only chunks and vectors). */
  keepFiles?: boolean;
}

/** Where requests go when routing sends them to a remote server with the same /v1 API. */
export interface RemoteOptions {
  baseURL: string;
  apiKey?: string;
  /** Attempts for a non-streaming request that meets a network error or a 5xx. Default 3. */
  attempts?: number;
  /** First backoff delay in ms, doubled each retry. Default 250. */
  backoffMs?: number;
}

/** How the weight store behaves; every field has a default. */
export interface StoreOptions {
  /** Bytes per IndexedDB value. Default 32 MiB. */
  chunkSize?: number;
  /** Files downloaded at once by `models.load`. Default 3. */
  concurrency?: number;
  /** Most bytes the cache may hold; least recently used models are evicted past it. Default: no budget. */
  budget?: number;
  /** Times a broken connection is resumed within one load. Default 2. */
  retries?: number;
  /** A download that brings no byte for this long is broken off (then resumed if retries are left). Default 30 000 ms. */
  stallMs?: number;
}

/** The IndexedDB databases of the memory store and of files and vector stores, when the options name none. */
export const DEFAULT_DATABASES = { memory: 'vaani-memory', data: 'vaani-data' } as const;
