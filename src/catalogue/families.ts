import type { EngineKind } from '../protocol/engines';
import type { ModelSource } from '../protocol/options';
import { OPENRAIL_M, type ModelLicence } from './model-licences';

/** The spec's products (§1): /v1/models' `product`. */
export const PRODUCTS = ['chat', 'voice', 'image', 'code', 'agents', 'memory', 'data'] as const;
export type Product = (typeof PRODUCTS)[number];
export type PriceUnit = '1M tokens' | 'character' | 'second';
export interface Price {
  currency: 'INR';
  amount: number | null;
  per: PriceUnit;
}

/** A model's file list for `ai.models.load` and `vaani pull` (`src/common/layouts/`). */
export type Layout = 'chat' | 'whisper' | 'embeddings' | 'diffusion' | 'kokoro' | 'vits' | 'piper' | 'sherpa-vits';

interface EntryBase {
  product: Product;
  /** The route a request for this model goes to. */
  route: string;
  /** The page-side engines (`src/page/engines/<name>.ts`) that answer this id. */
  engines: readonly EngineKind[];
  layout?: Layout;
  /** Where its files come from by default; absent: the page must name one (`createVaani({ models })`). */
  source?: ModelSource;
  /** OpenAI's names for it. */
  aliases?: readonly string[];
  /** The id whose files it reads (one folder, one copy in the cache, one engine; see `SHARED_FILES`). */
  sharesFilesWith?: string;
  /** The local id that completes and fills in the middle for it. */
  completion?: string;
  /** The routes and roles whose `model` defaults to this id (`defaultModel`). */
  defaultFor?: readonly string[];
  /** Answered by the browser's own model through this web API (routing `{ prefer: ['builtin'] }` by default). */
  builtin?: 'LanguageModel';
  /** The default weights' licence, listed on /v1/models. */
  licence?: ModelLicence;
}

/** A /v1/models id: its context window, price and status. */
interface ListedEntry extends EntryBase {
  listed?: true;
  context: number | null;
  price: Price;
  status: 'available' | 'coming_soon';
}

/** A local-only id: not in /v1/models, a request naming it is a 404. */
interface UnlistedEntry extends EntryBase {
  listed: false;
}

export type ModelEntry = ListedEntry | UnlistedEntry;

/**
 * Marks a default source whose hub commit could not be confirmed when it was chosen (no hub was
 * reachable): it loads the moving `main` branch, checked trust-on-first-use, and the page warns once.
 * Every other default names the commit it was pinned at.
 */
export const UNPINNED = 'main';
/** onnx-community/Qwen3-0.6B-ONNX at the commit public projects pin with its files' sizes and SHA-256. */
const QWEN3_0_6B = { repo: 'onnx-community/Qwen3-0.6B-ONNX', revision: 'da1453100cf3ff33ef56d17983fc7a8648706db6' };

const K = 1024;
const perMillion = (amount: number | null): Price => ({ currency: 'INR', amount, per: '1M tokens' });

/**
 * Every model id, once, in /v1/models order (spec §8's table plus the voice models of §2.4 and
 * §2.5). Everything else about model ids is derived from it.
 */
const TABLE = {
  'chat-v2-pro': {
    product: 'chat',
    route: '/chat/completions',
    engines: ['chat'],
    layout: 'chat',
    source: { repo: 'onnx-community/Qwen3-1.7B-ONNX', revision: UNPINNED },
    context: 128 * K,
    price: perMillion(60),
    status: 'available',
  },
  /** Qwen3 0.6B (Apache-2.0), whose 119 languages include Hindi, Bengali, Tamil, Telugu, Marathi, Gujarati. */
  'chat-v2': {
    product: 'chat',
    route: '/chat/completions',
    engines: ['chat'],
    layout: 'chat',
    source: QWEN3_0_6B,
    context: 64 * K,
    price: perMillion(32),
    status: 'available',
    defaultFor: ['/data/query', 'widget:chat', 'pull:chat'],
  },
  'speech-v1-turbo': {
    product: 'voice',
    route: '/audio/speech',
    engines: ['speech', 'transform'],
    context: 8 * K,
    price: perMillion(3),
    status: 'available',
    defaultFor: ['/audio/isolate', '/audio/voice-changer', '/audio/speech-to-speech'],
  },
  /**
   * LCM Dreamshaper v7, fp16 ONNX in the diffusers layout (UNet and VAE decoder weights in
   * `model.onnx_data`, CLIP's vocab.json + merges.txt): four LCM steps to a 512×512 image, WebGPU
   * with shader-f16 only (ONNX Runtime's WASM backend lacks fp16 kernels and the UNet passes its budget).
   */
  'image-v1': {
    product: 'image',
    route: '/images/generations',
    engines: ['images'],
    layout: 'diffusion',
    source: { repo: 'aislamov/lcm-dreamshaper-v7-onnx', revision: UNPINNED, dtype: 'fp16' },
    licence: OPENRAIL_M,
    context: 4 * K,
    price: perMillion(15),
    status: 'available',
    defaultFor: ['/images/generations', '/images/edits', 'pull:diffusion'],
  },
  /** Qwen2.5-Coder 0.5B Instruct (Apache-2.0): explain, debug, optimise; the agent loop's tool calls. */
  'code-v1': {
    product: 'code',
    route: '/code/completions',
    engines: ['chat'],
    layout: 'chat',
    source: { repo: 'onnx-community/Qwen2.5-Coder-0.5B-Instruct', revision: UNPINNED },
    context: 96 * K,
    price: perMillion(80),
    status: 'available',
    completion: 'code-v1-base',
    defaultFor: ['/code/completions'],
  },
  /** The chat model, whose template teaches Hermes tool calls. */
  'agent-v1': {
    product: 'agents',
    route: '/agents/run',
    engines: ['chat'],
    layout: 'chat',
    source: QWEN3_0_6B,
    sharesFilesWith: 'chat-v2',
    context: 64 * K,
    price: perMillion(40),
    status: 'available',
    defaultFor: ['/agents/run'],
  },
  /** Every catalogue voice (`src/catalogue/voices.ts`). */
  'speech-tts-v1': {
    product: 'voice',
    route: '/audio/speech',
    engines: ['speech', 'transform'],
    context: null,
    price: { currency: 'INR', amount: null, per: 'character' },
    status: 'available',
    aliases: ['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts'],
    defaultFor: ['voices', '/audio/speech/formats', 'widget:speech'],
  },
  /** Whisper base (multilingual, Hindi and 10 more Indian languages); IndicConformer for the 22 scheduled languages. */
  'speech-stt-v1': {
    product: 'voice',
    route: '/audio/transcriptions',
    engines: ['transcription'],
    layout: 'whisper',
    source: { repo: 'onnx-community/whisper-base', revision: UNPINNED },
    context: null,
    price: { currency: 'INR', amount: null, per: 'second' },
    status: 'available',
    aliases: ['whisper-1', 'gpt-4o-transcribe', 'gpt-4o-mini-transcribe'],
    defaultFor: ['widget:transcription', 'pull:whisper'],
  },
  /** multilingual-e5-small (MIT, 384 dimensions, about 94 languages): mean pooling, e5's prefixes. */
  'embed-v1': {
    product: 'memory',
    route: '/embeddings',
    engines: ['embeddings', 'memory', 'data'],
    layout: 'embeddings',
    source: {
      repo: 'Xenova/multilingual-e5-small',
      revision: UNPINNED,
      embedding: { prefixes: { query: 'query: ', passage: 'passage: ' } },
    },
    context: 512,
    price: perMillion(null),
    status: 'available',
    aliases: ['text-embedding-3-small', 'text-embedding-3-large'],
    defaultFor: ['/memory', '/files', '/vector_stores', 'pull:embeddings'],
  },
  /**
   * The browser's own model (Chrome's Prompt API, where the browser has one): no download, chat
   * with JSON Schema output; no tools, log-probabilities, seeds or penalties (routed elsewhere).
   */
  'builtin-chat': {
    product: 'chat',
    route: '/chat/completions',
    engines: [],
    builtin: 'LanguageModel',
    context: null,
    price: perMillion(null),
    status: 'available',
  },
  /** Qwen2.5-Coder 0.5B base (Apache-2.0), trained on fill-in-the-middle: code-v1's `complete` mode. */
  'code-v1-base': {
    product: 'code',
    route: '/code/completions',
    engines: ['chat'],
    layout: 'chat',
    source: { repo: 'onnx-community/Qwen2.5-Coder-0.5B', revision: UNPINNED },
    listed: false,
  },
} satisfies Record<string, ModelEntry>;

export type ModelId = keyof typeof TABLE;
export const MODEL_TABLE: Readonly<Record<ModelId, ModelEntry>> = TABLE;
const ENTRIES = Object.entries(MODEL_TABLE) as [ModelId, ModelEntry][];

/** The table's entry for an id, undefined for an unknown one. */
export const entryOf = (id: string): ModelEntry | undefined => (MODEL_TABLE as Record<string, ModelEntry>)[id];

/** A /v1/models item's catalogue fields. */
export interface CatalogueEntry {
  id: string;
  product: Product;
  route: string;
  context_window: number | null;
  price: Price;
  status: 'available' | 'coming_soon';
  builtin?: 'LanguageModel';
  /** The default weights' licence (SPDX id), where the catalogue states it. */
  license?: string;
  commercial?: boolean;
  use_restrictions?: string;
  license_url?: string;
}

/** The ids /v1/models lists, in its order. */
export const CATALOGUE: readonly CatalogueEntry[] = ENTRIES.flatMap(([id, entry]) =>
  entry.listed === false
    ? []
    : [
        {
          id,
          product: entry.product,
          route: entry.route,
          context_window: entry.context,
          price: entry.price,
          status: entry.status,
          ...(entry.builtin ? { builtin: entry.builtin } : {}),
          ...entry.licence,
        },
      ],
);
/** Same as CATALOGUE (the name src/page/api reads). */
export const MODELS = CATALOGUE;

/** The page-side engines, in the order the table first names them. */
export const ENGINES: readonly EngineKind[] = [...new Set(ENTRIES.flatMap(([, entry]) => entry.engines))];

/** The ids a page-side engine answers, in table order. */
export const modelsOf = (engine: EngineKind): ModelId[] =>
  ENTRIES.filter(([, entry]) => entry.engines.includes(engine)).map(([id]) => id);

/** The id a route's or role's `model` defaults to (each role has one owner; a unit test checks). */
export function defaultModel(role: string): ModelId {
  const found = ENTRIES.find(([, entry]) => entry.defaultFor?.includes(role));
  if (!found) throw new Error(`No model is the default for '${role}'.`);
  return found[0];
}

/** The aliases that name a catalogue model. */
export const aliasesOf = (id: string): string[] => [...(entryOf(id)?.aliases ?? [])];

/** The catalogue model an id or alias names; undefined for an unknown or local-only id. */
export function findModel(idOrAlias: string): CatalogueEntry | undefined {
  const owner = ENTRIES.find(([, entry]) => entry.aliases?.includes(idOrAlias))?.[0] ?? idOrAlias;
  return CATALOGUE.find((model) => model.id === owner);
}

/** A model's default source; undefined when the page must name one. */
export const sourceOf = (id: string): ModelSource | undefined => entryOf(id)?.source;

/** The layout of a model's files; undefined when it has none of its own. */
export const layoutOf = (id: string): Layout | undefined => entryOf(id)?.layout;

/** The models the widgets use unless told otherwise (for `src/index.ts` to export). */
export const DEFAULT_MODELS = {
  chat: defaultModel('widget:chat'),
  transcription: defaultModel('widget:transcription'),
  speech: defaultModel('widget:speech'),
} as const;
