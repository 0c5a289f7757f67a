import { MemoryStore } from './collection';
import type { MemoryListParams, MemoryPatch, MemorySearch, MemoryWorker, NewMemory } from '../../protocol/memory';
import type { Filter, Scope, VectorOrigin } from '../../protocol/collections';
import type { Served } from '../../protocol/worker';
import { exposeEngine } from '../host/expose';
import { opener } from '../collections/open';

/** The store, opened (and its items loaded into memory) once per worker. */
const answer = opener((name) => MemoryStore.open(name), 'memory store');

const api = {
  store: (_signal: AbortSignal, db: string, items: NewMemory[], origin: VectorOrigin) =>
    answer(db, (s) => s.store(items, origin)),
  search: (_signal: AbortSignal, db: string, query: MemorySearch, origin?: VectorOrigin) =>
    answer(db, (s) => s.search(query, origin)),
  get: (_signal: AbortSignal, db: string, id: string) => answer(db, (s) => s.get(id)),
  list: (_signal: AbortSignal, db: string, params: MemoryListParams) => answer(db, (s) => s.list(params)),
  update: (_signal: AbortSignal, db: string, id: string, patch: MemoryPatch, origin?: VectorOrigin) =>
    answer(db, (s) => s.update(id, patch, origin)),
  remove: (_signal: AbortSignal, db: string, id: string) => answer(db, (s) => s.remove(id)),
  removeWhere: (_signal: AbortSignal, db: string, scope: Scope, filters?: Filter) =>
    answer(db, (s) => s.removeWhere(scope, filters)),
  /** Items held in memory (opens the store: the cold-open measurement). */
  size: (_signal: AbortSignal, db: string) => answer(db, async (s) => s.size),
} satisfies Served<MemoryWorker>;

exposeEngine(api);
