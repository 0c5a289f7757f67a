/**
 * The planner's answer (`ai.plan`, `x_vaani` on GET /v1/models/{id}) and the download policy
 * (`createVaani({ fit })`) that acts on it before any model byte is fetched.
 */

/** How a figure was found: read off a listing, measured by the bench, or estimated. */
export type Basis = 'catalogue' | 'measured' | 'estimate';

export type Decision =
  | {
      run: 'local';
      backend: 'webgpu' | 'wasm' | 'builtin';
      dtype: string | null;
      /** Where the files come from: the base URL, or the browser's own model. */
      source: string;
      code: 'cached' | 'fits' | 'unknown' | 'save_data';
      reason: string;
    }
  | { run: 'remote' | 'none'; code: DeclineCode; reason: string };

export type DeclineCode =
  | 'no_engine'
  | 'no_source'
  | 'routing'
  | 'builtin_unavailable'
  | 'memory'
  | 'wasm_memory'
  | 'needs_webgpu'
  | 'storage'
  | 'offline'
  | 'save_data'
  | 'unknown';

/** What a plan is for beyond the model: speech-stt-v1 plans the family a language is routed to. */
export interface PlanFor {
  /** An ISO-639-1 code: speech-stt-v1 plans the family that recognises it (IndicConformer for its 22 languages). */
  language?: string;
  /** A voice id: a speech model plans that voice's weights (`kokoro-82m`, …); eSpeak's voices download no model. */
  voice?: string;
}

/** `ai.plan(…)` and GET /v1/models/{id}'s `x_vaani`: what running a model here takes, decided before any byte moves. */
export interface ModelPlan {
  model: string;
  /** The id whose files it reads (agent-v1 → chat-v2). */
  files_of: string;
  /**
   * speech-stt-v1 only: the family whose files are planned (`whisper`; `indic-conformer` or
   * `shruti`, the language's own model, for a language routed there) and the language asked for
   * (null: none, so Whisper's, which detects).
   */
  part?: { engine: 'whisper' | 'indic-conformer' | 'shruti'; language: string | null };
  decision: Decision;
  download: {
    /** Bytes of every file it would read (null: unknown). */
    bytes: number | null;
    cached_bytes: number;
    /** Bytes still to fetch (null: unknown). */
    remaining_bytes: number | null;
    /** Bytes this page saw cached for these files that the browser has since cleared (evicted); 0 where none. */
    evicted_bytes: number;
    /** True when every file's size is known (a manifest, `files`, or the cache); false for a rounded or estimated figure. */
    exact: boolean;
    basis: 'manifest' | 'files' | 'cache' | Basis | 'none' | 'unknown';
    from: string;
    /** Whole seconds for `remaining_bytes` at the reported downlink (null: not reported). */
    seconds: number | null;
    files?: { name: string; size: number | null; cached_bytes: number }[];
  };
  memory: { bytes: number | null; basis: Basis | 'unknown'; from: string };
  device: {
    memory_bytes: number | null;
    gpu: {
      adapter: boolean | null;
      f16: boolean;
      max_buffer_size: number;
      max_storage_buffer_binding_size: number;
    } | null;
    cross_origin_isolated: boolean;
    wasm_threads: boolean;
    storage: { quota: number | null; usage: number | null; persisted: boolean | null } | null;
  };
  network: {
    online: boolean;
    save_data: boolean | null;
    effective_type: string | null;
    downlink_mbps: number | null;
    /** navigator.connection.type ('cellular', 'wifi', …) where the browser says it. */
    type: string | null;
  };
  /** What this browser does not report: 'memory', 'network', 'gpu', 'storage'. */
  unknown: string[];
  /** The tier of a tiered product's model (chat, transcription, speech, embeddings, images) and why. */
  tier?: TierPlan;
  /** `navigator.storage.persist()`, asked once per page with the first large download: whether it was asked and what it answered. */
  persist: { asked: boolean; granted: boolean | null };
}

/** The products with small / medium / large defaults (the engine kinds' names). */
export type TierProduct = 'chat' | 'transcription' | 'speech' | 'embeddings' | 'images';
export type Tier = 'small' | 'medium' | 'large';

/** One tier of a product as the catalogue states it, sized for this device's backend. */
export interface TierOption {
  tier: Tier;
  /** The model in words ('Qwen3-0.6B'). */
  model: string;
  /** Hub repo of its files; null where the tier downloads no model (eSpeak) or has no local export. */
  repo: string | null;
  license: string | null;
  commercial: boolean | null;
  /** What it covers per language (transcription, speech), in words. */
  languages?: string;
  backend: 'webgpu' | 'wasm';
  dtype: string | null;
  /** Bytes to download (the catalogue's rounded size or an estimate, see basis); null where unknown. */
  download_bytes: number | null;
  memory_bytes: number | null;
  basis: 'catalogue' | 'estimate' | 'none';
  /** Why the planner would pass it by on this device; absent where it fits. */
  passed?: string;
}

/** `plan.tier`: which tier the planner chose for the product, by whom, and why in words. */
export interface TierPlan {
  product: TierProduct;
  tier: Tier;
  /** 'app': createVaani({ fit: { tier } }); 'device': picked from what the browser reports; 'unknown': the conservative pick where it reports too little. */
  by: 'app' | 'device' | 'unknown';
  code: 'forced' | 'unknown' | 'save_data' | 'metered' | 'fits' | 'memory' | 'storage' | 'only';
  reason: string;
  /** False where createVaani({ models }) names the files (the app's source is used; the tier is only advice). */
  applied: boolean;
  model: string;
  options: TierOption[];
}

/** Why a download waits for consent: over the ceiling, on a metered/Save-Data/slow connection, or on a device short of memory. */
export type ConsentWhy = 'ceiling' | 'metered' | 'memory';

/** What `fit.confirm` is asked about: the plan, and what the download is for and why it asks. */
export interface DownloadConsent extends ModelPlan {
  consent: {
    /** The kind of engine the download is for: 'chat', 'transcription', 'speech', 'embeddings' or 'images'. */
    for: string;
    why: ConsentWhy[];
    /** Why, in words a developer can show. */
    reason: string;
    /** Whether a remote is configured to answer instead (declining then uses it). */
    remote: boolean;
    /** The download in words ('512 MB'); null when its size is unknown. */
    size: string | null;
    /** The expected time in words on this connection ('~7 min'); null where the browser reports no speed. */
    time: string | null;
  };
}

/** `createVaani({ fit })`: when a model download may start without asking. */
export interface FitOptions {
  /**
   * The largest download started without consent, on any connection. Default: 100 MB on a metered
   * or Save-Data connection, one slower than `minDownlinkMbps`, or a device the plan says is short
   * of memory; no limit otherwise.
   */
  maxDownloadBytes?: number;
  /**
   * A download over the ceiling on a metered or Save-Data connection: 'ask' (default) asks
   * `confirm` (else the remote answers where configured), 'remote' uses the remote without asking
   * (asks where none is configured), 'local' downloads it (the default ceiling then no longer
   * applies to the connection).
   */
  metered?: 'ask' | 'remote' | 'local';
  /** A connection reporting a downlink below this (Mbit/s) counts as metered. Default: none. */
  minDownlinkMbps?: number;
  /**
   * Asked before a download that needs consent: true starts it; false, a throw or a rejection
   * declines it (the remote answers where configured, else the request gets a 503
   * `download_declined`), and it is not asked again in this page until `ai.plan.reset()`.
   */
  confirm?(plan: DownloadConsent): boolean | Promise<boolean>;
  /**
   * The tier of every tiered product ('small' | 'medium' | 'large'), or per product
   * (`{ chat: 'large', transcription: 'small' }`; 'auto' or absent: the planner picks by device).
   */
  tier?: Tier | 'auto' | Partial<Record<TierProduct, Tier | 'auto'>>;
}
