import { RetrievalIndex, type Indexed } from '../../common/retrieval/index';

/**
 * The resident retrieval indexes of a worker's collections, one per key (the memory store; each
 * vector store): in-memory copies of IndexedDB rows that answer searches, kept in step with writes.
 * An index is in place from the start of its load, so a drop meanwhile makes the next search load
 * it again.
 */
export class Resident<T extends Indexed> {
  private readonly indexes = new Map<string, RetrievalIndex<T>>();

  /** The index of `key`, if loaded. */
  get(key: string): RetrievalIndex<T> | undefined {
    return this.indexes.get(key);
  }

  /** A fresh, empty index for `key`, replacing any. */
  fresh(key: string, dimensions: number): RetrievalIndex<T> {
    const index = new RetrievalIndex<T>(dimensions);
    this.indexes.set(key, index);
    return index;
  }

  /** Loads `key` anew from `pages` (its rows, a page at a time). */
  async load(key: string, dimensions: number, pages: AsyncIterable<T[]> | Iterable<T[]>): Promise<RetrievalIndex<T>> {
    const index = this.fresh(key, dimensions);
    for await (const rows of pages) for (const row of rows) index.put(row);
    return index;
  }

  /** Forgets `key`'s index (gone, or changed by another tab: loaded again when next needed). */
  drop(key: string): void {
    this.indexes.delete(key);
  }

  /** Mirrors a committed write on `key`'s index, if loaded. */
  apply(key: string, put: T[], removed: string[]): void {
    const index = this.indexes.get(key);
    if (!index) return;
    for (const id of removed) index.remove(id);
    for (const row of put) index.put(row);
  }
}
