import { MemoryStore } from './collection';
import { EngineError, messageOf } from '../../protocol/errors';
import type { MemoryListParams, MemoryPatch, MemorySearch, MemoryWorker, NewMemory } from '../../protocol/memory';
import type { Filter, Scope, VectorOrigin } from '../../protocol/collections';
import type { Served } from '../../protocol/worker';
import { exposeEngine } from '../host/expose';

let opened: Promise<MemoryStore> | undefined;

/** The store, opened (and its items loaded into memory) once per worker. */
function store(name: string): Promise<MemoryStore> {
  opened ??= MemoryStore.open(name).catch((error: unknown) => {
    opened = undefined;
    throw new EngineError(
      'unavailable',
      `The memory store could not be opened (IndexedDB): ${messageOf(error)}`,
      'storage_unavailable',
    );
  });
  return opened;
}

const answer = async <T>(name: string, operation: (store: MemoryStore) => Promise<T>): Promise<T> =>
  operation(await store(name));

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
