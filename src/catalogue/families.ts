export type Product = 'chat' | 'voice' | 'image' | 'code' | 'agents' | 'memory' | 'data';
export type PriceUnit = '1M tokens' | 'character' | 'second';

export interface CatalogueEntry {
  id: string;
  product: Product;
  /** The route a request for this model goes to. */
  route: string;
  context_window: number | null;
  price: { currency: 'INR'; amount: number | null; per: PriceUnit };
  status: 'available' | 'coming_soon';
}

export interface ProductEntry {
  product: Product;
  route: string;
  status: 'available' | 'coming_soon';
}

/** Spec §1. */
export const PRODUCTS: readonly ProductEntry[] = [
  { product: 'chat', route: '/chat/completions', status: 'available' },
  { product: 'voice', route: '/audio/speech', status: 'available' },
  { product: 'image', route: '/images/generations', status: 'available' },
  { product: 'code', route: '/code/completions', status: 'available' },
  { product: 'agents', route: '/agents/run', status: 'available' },
  { product: 'memory', route: '/memory/store', status: 'available' },
  { product: 'data', route: '/data/query', status: 'available' },
];

const K = 1024;
const perMillion = (amount: number) => ({ currency: 'INR', amount, per: '1M tokens' }) as const;

/** Spec §8's table, plus the voice models of §2.4 and §2.5. */
export const MODELS: readonly CatalogueEntry[] = [
  {
    id: 'chat-v2-pro',
    product: 'chat',
    route: '/chat/completions',
    context_window: 128 * K,
    price: perMillion(60),
    status: 'available',
  },
  {
    id: 'chat-v2',
    product: 'chat',
    route: '/chat/completions',
    context_window: 64 * K,
    price: perMillion(32),
    status: 'available',
  },
  {
    id: 'speech-v1-turbo',
    product: 'voice',
    route: '/audio/speech',
    context_window: 8 * K,
    price: perMillion(3),
    status: 'available',
  },
  {
    id: 'image-v1',
    product: 'image',
    route: '/images/generations',
    context_window: 4 * K,
    price: perMillion(15),
    status: 'available',
  },
  {
    id: 'code-v1',
    product: 'code',
    route: '/code/completions',
    context_window: 96 * K,
    price: perMillion(80),
    status: 'available',
  },
  {
    id: 'agent-v1',
    product: 'agents',
    route: '/agents/run',
    context_window: 64 * K,
    price: perMillion(40),
    status: 'available',
  },
  {
    id: 'speech-tts-v1',
    product: 'voice',
    route: '/audio/speech',
    context_window: null,
    price: { currency: 'INR', amount: null, per: 'character' },
    status: 'available',
  },
  {
    id: 'speech-stt-v1',
    product: 'voice',
    route: '/audio/transcriptions',
    context_window: null,
    price: { currency: 'INR', amount: null, per: 'second' },
    status: 'available',
  },
  {
    id: 'embed-v1',
    product: 'memory',
    route: '/embeddings',
    context_window: 512,
    price: { currency: 'INR', amount: null, per: '1M tokens' },
    status: 'available',
  },
];

/** Other names a request may use for a catalogue model: OpenAI's own model names. */
export const MODEL_ALIASES: Readonly<Record<string, string>> = {
  'text-embedding-3-small': 'embed-v1',
  'text-embedding-3-large': 'embed-v1',
  'tts-1': 'speech-tts-v1',
  'tts-1-hd': 'speech-tts-v1',
  'gpt-4o-mini-tts': 'speech-tts-v1',
  'whisper-1': 'speech-stt-v1',
  'gpt-4o-transcribe': 'speech-stt-v1',
  'gpt-4o-mini-transcribe': 'speech-stt-v1',
};

/** The aliases that name a catalogue model. */
export const aliasesOf = (id: string) => Object.keys(MODEL_ALIASES).filter((alias) => MODEL_ALIASES[alias] === id);

export const findModel = (id: string) => MODELS.find((model) => model.id === (MODEL_ALIASES[id] ?? id));
