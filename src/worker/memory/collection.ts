import { EngineError } from '../../protocol/errors';
import type {
  Memory,
  MemoryHit,
  MemoryListParams,
  MemoryPage,
  MemoryPatch,
  MemorySearch,
  NewMemory,
  StoredMemory,
} from '../../protocol/memory';
import type { Filter, Scope, VectorOrigin } from '../../protocol/collections';
import { inScope, matches } from '../../common/retrieval/index';
import { DEFAULT_DATABASES } from '../../protocol/options';
import { MemoryDb } from './db';
import { sortableId, unixSeconds } from '../../common/ids';
import { Resync } from '../collections/resync';
import { Resident } from '../collections/resident';
import { pageOf } from '../../common/paging';

/** What a tab tells the others after a committed write. */
interface Change {
  changed: string[];
}

export const publicMemory = ({ vector: _vector, origin: _origin, ...rest }: StoredMemory): Memory => ({
  object: 'memory',
  ...rest,
});

const notFound = (id: string) =>
  new EngineError('not_found', `No memory has the id '${id}'.`, 'memory_not_found', 'id');

const sameOrigin = (a: VectorOrigin, b: VectorOrigin) =>
  a.model === b.model &&
  a.source === b.source &&
  a.revision === b.revision &&
  a.dimensions === b.dimensions &&
  a.prefix === b.prefix;

/** A conflict when a request's embedding model is not the one the stored vectors came from. */
function requireOrigin(stored: VectorOrigin | undefined, wanted: VectorOrigin | undefined, nonEmpty: boolean) {
  if (!stored || !wanted || !nonEmpty || sameOrigin(stored, wanted)) return;
  const name = (o: VectorOrigin) =>
    `${o.model} (${o.source}@${o.revision}, ${o.dimensions} dimensions, prefix '${o.prefix}')`;
  throw new EngineError(
    'conflict',
    `The stored memories were embedded with ${name(stored)}; this request uses ${name(wanted)}. Vectors of two models cannot be compared: configure the original model, or delete the memories (POST /v1/memory/delete) and store them again.`,
    'embedding_model_mismatch',
    'model',
  );
}

/** Items read from IndexedDB per step when the store opens. */
const LOAD_PAGE = 2000;

/** The resident index's key: the memory store is one collection. */
const MEMORY = 'memory';

/**
 * The memory store of one worker: IndexedDB is the truth, and an in-memory RetrievalIndex (loaded
 * once, kept in step with this tab's writes and, through a BroadcastChannel, other tabs') answers
 * searches. Every write is one IndexedDB transaction, so two tabs writing at once lose nothing.
 */
export class MemoryStore {
  private readonly resident = new Resident<StoredMemory>();
  private origin: VectorOrigin | undefined;
  private readonly resync: Resync<Change>;

  private constructor(
    private readonly db: MemoryDb,
    name: string,
  ) {
    this.resync = new Resync<Change>(name, (message) => this.sync(message.changed));
  }

  static async open(name: string = DEFAULT_DATABASES.memory): Promise<MemoryStore> {
    const store = new MemoryStore(await MemoryDb.open(name), name);
    await store.load();
    return store;
  }

  private get index() {
    return this.resident.get(MEMORY);
  }

  get size(): number {
    return this.index?.size ?? 0;
  }

  private async load(): Promise<void> {
    const origin = await this.db.origin();
    this.origin = origin;
    if (origin) await this.resident.load(MEMORY, origin.dimensions, this.pages());
    else this.resident.drop(MEMORY);
  }

  private async *pages(): AsyncIterable<StoredMemory[]> {
    for (let after: string | undefined; ;) {
      const rows = await this.db.page(after, LOAD_PAGE);
      yield rows;
      if (rows.length < LOAD_PAGE) return;
      after = rows.at(-1)!.id;
    }
  }

  /** Applies other tabs' committed writes to the in-memory copy. */
  private async sync(ids: string[]): Promise<void> {
    const { found, missing } = await this.db.some(ids);
    const origin = await this.db.origin();
    if (!origin || !this.origin || !sameOrigin(origin, this.origin)) return this.load();
    this.resident.apply(MEMORY, found, missing);
  }

  private settled(): Promise<void> {
    return this.resync.settled();
  }

  private announce(changed: string[]): void {
    if (changed.length) this.resync.announce({ changed });
  }

  /** Mirrors a committed write in memory; `origin` null means the store is now empty. */
  private apply(put: StoredMemory[], removed: string[], origin: VectorOrigin | null | undefined): void {
    if (origin === null) {
      this.origin = undefined;
      this.resident.drop(MEMORY);
    } else if (origin && (!this.origin || !sameOrigin(origin, this.origin))) {
      this.origin = origin;
      this.resident.fresh(MEMORY, origin.dimensions);
    }
    this.resident.apply(MEMORY, put, removed);
    this.announce([...removed, ...put.map((row) => row.id)]);
  }

  async store(items: NewMemory[], origin: VectorOrigin): Promise<Memory[]> {
    await this.settled();
    const rows = await this.db.write(async (read) => {
      requireOrigin(read.origin, origin, (await read.count()) > 0);
      const time = unixSeconds();
      const put = items.map((item): StoredMemory => ({
        id: sortableId('mem_', 16),
        text: item.text,
        metadata: item.metadata,
        scope: item.scope,
        created_at: time,
        updated_at: time,
        model: origin.model,
        vector: item.vector,
        origin,
      }));
      return { put, origin, result: put };
    });
    this.apply(rows, [], origin);
    return rows.map(publicMemory);
  }

  async search(query: MemorySearch, origin: VectorOrigin | undefined): Promise<MemoryHit[]> {
    await this.settled();
    if (!this.index) return [];
    if (query.mode !== 'keyword') requireOrigin(this.origin, origin, this.index.size > 0);
    return this.index.search(query).map(({ id, score, scores }) => ({
      ...publicMemory(this.index!.get(id)!),
      score,
      scores,
    }));
  }

  async get(id: string): Promise<Memory> {
    await this.settled();
    const row = this.index?.get(id);
    if (!row) throw notFound(id);
    return publicMemory(row);
  }

  /** Oldest first (or newest with order 'desc'), then by id; `after` is the last id of the previous page. */
  async list(params: MemoryListParams): Promise<MemoryPage> {
    await this.settled();
    const page = pageOf(this.index ? this.index.select(params.scope) : [], params, 'memory');
    return { data: page.data.map(publicMemory), has_more: page.has_more };
  }

  async update(id: string, patch: MemoryPatch, origin: VectorOrigin | undefined): Promise<Memory> {
    await this.settled();
    const row = await this.db.write(async (read) => {
      const current = await read.get(id);
      if (!current) throw notFound(id);
      if (patch.vector) requireOrigin(read.origin, origin, true);
      const next: StoredMemory = {
        ...current,
        text: patch.text ?? current.text,
        metadata: patch.metadata ?? current.metadata,
        scope: patch.scope ?? current.scope,
        vector: patch.vector ?? current.vector,
        updated_at: unixSeconds(),
      };
      return { put: [next], result: next };
    });
    this.apply([row], [], undefined);
    return publicMemory(row);
  }

  async remove(id: string): Promise<void> {
    await this.settled();
    const empty = await this.db.write(async (read) => {
      if (!(await read.get(id))) throw notFound(id);
      const empty = (await read.count()) === 1;
      return { remove: [id], origin: empty ? null : undefined, result: empty };
    });
    this.apply([], [id], empty ? null : undefined);
  }

  /** Deletes every memory in `scope` passing `filters`; returns how many. */
  async removeWhere(scope: Scope, filters: Filter | undefined): Promise<number> {
    await this.settled();
    const { ids, empty } = await this.db.write(async (read) => {
      const rows = await read.all();
      const ids = rows
        .filter((row) => inScope(row.scope, scope) && (!filters || matches(filters, row.metadata)))
        .map((row) => row.id);
      const empty = ids.length === rows.length;
      return { remove: ids, origin: empty ? null : undefined, result: { ids, empty } };
    });
    this.apply([], ids, empty ? null : undefined);
    return ids.length;
  }
}
