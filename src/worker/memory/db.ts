import { atomicWrite, openDatabase, requestDone as done, writeFailure } from '../collections/idb';
import type { StoredMemory } from '../../protocol/memory';
import type { VectorOrigin } from '../../protocol/collections';
import { DEFAULT_DATABASES } from '../../protocol/options';

/**
 * IndexedDB database of the memory store: `items` (StoredMemory by id) and `meta` (the store's
 * vector origin; `version`, bumped by every write that changes something).
 */
const VERSION = 1;

export class MemoryDb {
  private constructor(private readonly db: IDBDatabase) {}

  static async open(name: string = DEFAULT_DATABASES.memory): Promise<MemoryDb> {
    const opened = await openDatabase(name, VERSION, (db) => {
      db.createObjectStore('items', { keyPath: 'id' });
      db.createObjectStore('meta');
    });
    return new MemoryDb(opened);
  }

  /**
   * Up to `count` items after the id `after`, in id order: loading page by page lets the worker's
   * event loop answer between pages (a 100k store read at once blocks it for a long time).
   */
  page(after: string | undefined, count: number): Promise<StoredMemory[]> {
    const range = after === undefined ? undefined : IDBKeyRange.lowerBound(after, true);
    return done(this.db.transaction('items').objectStore('items').getAll(range, count) as IDBRequest<StoredMemory[]>);
  }

  /** The items with these ids that exist now (for syncing another tab's writes). */
  async some(ids: string[]): Promise<{ found: StoredMemory[]; missing: string[] }> {
    const store = this.db.transaction('items').objectStore('items');
    const rows = await Promise.all(ids.map((id) => done(store.get(id) as IDBRequest<StoredMemory | undefined>)));
    return {
      found: rows.filter((row): row is StoredMemory => row !== undefined),
      missing: ids.filter((_, i) => rows[i] === undefined),
    };
  }

  origin(): Promise<VectorOrigin | undefined> {
    return done(this.db.transaction('meta').objectStore('meta').get('origin'));
  }

  /** The number of the last write that changed something (0 before any). */
  async version(): Promise<number> {
    return ((await done(this.db.transaction('meta').objectStore('meta').get('version'))) as number | undefined) ?? 0;
  }

  /**
   * One atomic write: `decide` runs inside a readwrite transaction over items and meta (so it sees
   * what other tabs committed before it) and returns the puts and deletes to make. Either all of
   * them land or, on any failure (a full quota included), none. A write that changes something
   * bumps `version` in the same transaction and returns the new one.
   */
  write<T>(
    decide: (read: {
      origin: VectorOrigin | undefined;
      get(id: string): Promise<StoredMemory | undefined>;
      all(): Promise<StoredMemory[]>;
      count(): Promise<number>;
    }) => Promise<{ put?: StoredMemory[]; remove?: string[]; origin?: VectorOrigin | null; result: T }>,
  ): Promise<{ result: T; version?: number }> {
    const tx = this.db.transaction(['items', 'meta'], 'readwrite', { durability: 'strict' });
    const items = tx.objectStore('items');
    const meta = tx.objectStore('meta');
    const work = async () => {
      const origin = (await done(meta.get('origin'))) as VectorOrigin | undefined;
      const before = ((await done(meta.get('version'))) as number | undefined) ?? 0;
      const plan = await decide({
        origin,
        get: (id) => done(items.get(id) as IDBRequest<StoredMemory | undefined>),
        all: () => done(items.getAll() as IDBRequest<StoredMemory[]>),
        count: () => done(items.count()),
      });
      for (const row of plan.put ?? []) items.put(row);
      for (const id of plan.remove ?? []) items.delete(id);
      if (plan.origin === null) meta.delete('origin');
      else if (plan.origin) meta.put(plan.origin, 'origin');
      if (!plan.put?.length && !plan.remove?.length && plan.origin === undefined) return { result: plan.result };
      meta.put(before + 1, 'version');
      return { result: plan.result, version: before + 1 };
    };
    // A decision error (e.g. a 409) wins over the abort it caused.
    return atomicWrite(tx, work, (error) => writeFailure(error, 'memory store', 'Delete memories or free space'));
  }

  close(): void {
    this.db.close();
  }
}
