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
import { Seen } from '../collections/seen';
import { pageOf } from '../../common/paging';

/** What a tab tells the others after a committed write (`version`: the write's number, absent from older builds). */
interface Change {
  changed: string[];
  version?: number;
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

/** How long a read waits for another tab's announcement of a write it has not seen yet, in steps, before reloading. */
const CATCH_UP_STEPS = 5;
const CATCH_UP_STEP_MS = 20;

/**
 * The memory store of one worker: IndexedDB is the truth, and an in-memory RetrievalIndex (loaded
 * once, kept in step with this tab's writes and, through a BroadcastChannel, other tabs') answers
 * searches. Every write is one IndexedDB transaction, so two tabs writing at once lose nothing. Each
 * read first checks that the index reflects every committed write (`Seen`): one never announced
 * (its tab's worker died after the commit) makes the index load again from the rows.
 */
export class MemoryStore {
  private readonly resident = new Resident<StoredMemory>();
  private origin: VectorOrigin | undefined;
  private readonly seen = new Seen();
  private readonly resync: Resync<Change>;

  private constructor(
    private readonly db: MemoryDb,
    name: string,
  ) {
    this.resync = new Resync<Change>(name, (message) => this.sync(message));
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
    // The version first: rows committed after it are loaded too, and applied again when announced.
    this.seen.reset(await this.db.version());
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
  private async sync({ changed, version }: Change): Promise<void> {
    const { found, missing } = await this.db.some(changed);
    const origin = await this.db.origin();
    if (!origin || !this.origin || !sameOrigin(origin, this.origin)) return this.load();
    this.resident.apply(MEMORY, found, missing);
    if (version !== undefined) this.seen.saw(version);
  }

  private settled(): Promise<void> {
    return this.resync.settled();
  }

  /**
   * Before a read: the index reflects every write committed so far, waiting briefly for an
   * announcement on its way; a write never announced makes the index load again from the rows.
   */
  private async current(): Promise<void> {
    await this.settled();
    const version = await this.db.version();
    for (let step = 0; !this.seen.covers(version); step++) {
      if (step === CATCH_UP_STEPS) return this.load();
      await new Promise((resolve) => setTimeout(resolve, CATCH_UP_STEP_MS));
      await this.settled();
    }
  }

  /** Mirrors a committed write in memory; `origin` null means the store is now empty. */
  private apply(
    put: StoredMemory[],
    removed: string[],
    origin: VectorOrigin | null | undefined,
    version: number | undefined,
  ): void {
    if (origin === null) {
      this.origin = undefined;
      this.resident.drop(MEMORY);
    } else if (origin && (!this.origin || !sameOrigin(origin, this.origin))) {
      this.origin = origin;
      this.resident.fresh(MEMORY, origin.dimensions);
    }
    this.resident.apply(MEMORY, put, removed);
    if (version === undefined) return;
    this.seen.saw(version);
    this.resync.announce({ changed: [...removed, ...put.map((row) => row.id)], version });
  }

  async store(items: NewMemory[], origin: VectorOrigin): Promise<Memory[]> {
    await this.settled();
    const { result: rows, version } = await this.db.write(async (read) => {
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
    this.apply(rows, [], origin, version);
    return rows.map(publicMemory);
  }

  async search(query: MemorySearch, origin: VectorOrigin | undefined): Promise<MemoryHit[]> {
    await this.current();
    if (!this.index) return [];
    if (query.mode !== 'keyword') requireOrigin(this.origin, origin, this.index.size > 0);
    return this.index.search(query).map(({ id, score, scores }) => ({
      ...publicMemory(this.index!.get(id)!),
      score,
      scores,
    }));
  }

  async get(id: string): Promise<Memory> {
    await this.current();
    const row = this.index?.get(id);
    if (!row) throw notFound(id);
    return publicMemory(row);
  }

  /** Oldest first (or newest with order 'desc'), then by id; `after` is the last id of the previous page. */
  async list(params: MemoryListParams): Promise<MemoryPage> {
    await this.current();
    const page = pageOf(this.index ? this.index.select(params.scope) : [], params, 'memory');
    return { data: page.data.map(publicMemory), has_more: page.has_more };
  }

  async update(id: string, patch: MemoryPatch, origin: VectorOrigin | undefined): Promise<Memory> {
    await this.settled();
    const { result: row, version } = await this.db.write(async (read) => {
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
    this.apply([row], [], undefined, version);
    return publicMemory(row);
  }

  async remove(id: string): Promise<void> {
    await this.settled();
    const { result: empty, version } = await this.db.write(async (read) => {
      if (!(await read.get(id))) throw notFound(id);
      const empty = (await read.count()) === 1;
      return { remove: [id], origin: empty ? null : undefined, result: empty };
    });
    this.apply([], [id], empty ? null : undefined, version);
  }

  /** Deletes every memory in `scope` passing `filters`; returns how many. */
  async removeWhere(scope: Scope, filters: Filter | undefined): Promise<number> {
    await this.settled();
    const {
      result: { ids, empty },
      version,
    } = await this.db.write(async (read) => {
      const rows = await read.all();
      const ids = rows
        .filter((row) => inScope(row.scope, scope) && (!filters || matches(filters, row.metadata)))
        .map((row) => row.id);
      const empty = ids.length === rows.length;
      return { remove: ids, origin: empty ? null : undefined, result: { ids, empty } };
    });
    this.apply([], ids, empty ? null : undefined, version);
    return ids.length;
  }
}
