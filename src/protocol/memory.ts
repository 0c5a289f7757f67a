import type { Filter, Metadata, Scope, SearchMode, VectorOrigin } from './collections';
import type { EmbeddingModel } from './embeddings';

/** A memory as routes return it (no vector). */
export interface Memory {
  id: string;
  object: 'memory';
  text: string;
  metadata: Metadata;
  scope: Scope;
  created_at: number;
  updated_at: number;
  model: string;
}

/** A memory as IndexedDB keeps it: the vector as a Float32Array, never a JSON array. */
export interface StoredMemory extends Omit<Memory, 'object'> {
  vector: Float32Array;
  origin: VectorOrigin;
}

/** A memory a route asks to store: the engine embeds its text. */
export interface MemoryInput {
  text: string;
  metadata: Metadata;
  scope: Scope;
}

/** A memory the worker stores, with its vector. */
export interface NewMemory extends MemoryInput {
  vector: Float32Array;
}

/** A search as a route asks it: the engine embeds the text unless the mode is keyword. */
export interface MemoryQuery {
  text: string;
  mode: SearchMode;
  scope?: Scope;
  filters?: Filter;
  limit: number;
  minScore?: number;
}

/** A search as the worker runs it. */
export interface MemorySearch extends MemoryQuery {
  vector?: Float32Array;
}

export interface MemoryHit extends Memory {
  score: number;
  scores: { semantic?: number; keyword?: number };
}

export interface MemoryPage {
  data: Memory[];
  has_more: boolean;
}

export interface MemoryListParams {
  scope: Scope;
  limit: number;
  after?: string;
  order: 'asc' | 'desc';
}

/** An update as a route asks it: new text is embedded again. */
export interface MemoryChange {
  text?: string;
  metadata?: Metadata;
  scope?: Scope;
}

/** An update as the worker applies it. */
export interface MemoryPatch extends MemoryChange {
  vector?: Float32Array;
}

/** A result and the tokens the embedding model read for it (OpenAI's `usage`; 0 when nothing was embedded). */
export interface Embedded<T> {
  result: T;
  usage: { prompt_tokens: number; total_tokens: number };
}

/** The memory store: IndexedDB behind it, searched in a worker over an in-memory copy; it embeds texts itself. */
export interface MemoryEngine {
  store(items: MemoryInput[], signal: AbortSignal): Promise<Embedded<Memory[]>>;
  search(query: MemoryQuery, signal: AbortSignal): Promise<Embedded<MemoryHit[]>>;
  get(id: string, signal: AbortSignal): Promise<Memory>;
  list(params: MemoryListParams, signal: AbortSignal): Promise<MemoryPage>;
  update(id: string, change: MemoryChange, signal: AbortSignal): Promise<Embedded<Memory>>;
  remove(id: string, signal: AbortSignal): Promise<void>;
  removeWhere(scope: Scope, filters: Filter | undefined, signal: AbortSignal): Promise<number>;
}

/** The origin record of vectors made by `model` for passages. */
export const originOf = (model: EmbeddingModel): VectorOrigin => ({
  model: model.id,
  source: model.source,
  revision: model.revision,
  dimensions: model.dimensions,
  prefix: model.prefixes.passage,
});

/** The memory worker's API (src/worker/memory/memory.worker.ts satisfies it): each call names its IndexedDB database. */
export interface MemoryWorker {
  store(db: string, items: NewMemory[], origin: VectorOrigin): Promise<Memory[]>;
  search(db: string, query: MemorySearch, origin?: VectorOrigin): Promise<MemoryHit[]>;
  get(db: string, id: string): Promise<Memory>;
  list(db: string, params: MemoryListParams): Promise<MemoryPage>;
  update(db: string, id: string, patch: MemoryPatch, origin?: VectorOrigin): Promise<Memory>;
  remove(db: string, id: string): Promise<void>;
  removeWhere(db: string, scope: Scope, filters?: Filter): Promise<number>;
  /** Items held in memory (opens the store: the cold-open measurement). */
  size(db: string): Promise<number>;
}
