import { DEFAULT_DATABASES } from '../../protocol/options';
import { atomicWrite, openDatabase, writeFailure } from '../collections/idb';

/**
 * IndexedDB database of the data product: `files` (file objects), `blobs` (their bytes by file
 * id), `stores` (vector stores), `entries` (store files, keyed `store/file`), `batches` and
 * `chunks` (text, vector and attributes of every chunk of every store file).
 */
const VERSION = 1;

export type StoreName = 'files' | 'blobs' | 'stores' | 'entries' | 'batches' | 'chunks';

export class DataDb {
  private constructor(private readonly db: IDBDatabase) {}

  static async open(name: string = DEFAULT_DATABASES.data): Promise<DataDb> {
    const opened = await openDatabase(name, VERSION, (db) => {
      db.createObjectStore('files', { keyPath: 'id' });
      db.createObjectStore('blobs');
      db.createObjectStore('stores', { keyPath: 'id' });
      db.createObjectStore('entries', { keyPath: 'key' }).createIndex('store', 'vector_store_id');
      db.createObjectStore('batches', { keyPath: 'id' });
      const chunks = db.createObjectStore('chunks', { keyPath: 'id' });
      chunks.createIndex('store', 'store_id');
      chunks.createIndex('file', 'file_id');
    });
    return new DataDb(opened);
  }

  /** One read-only look at some object stores. */
  read<T>(names: StoreName[], look: (get: (name: StoreName) => IDBObjectStore) => Promise<T>): Promise<T> {
    const tx = this.db.transaction(names);
    return look((name) => tx.objectStore(name));
  }

  /**
   * One atomic write: `change` queues puts and deletes on the object stores; all of them land or,
   * on any failure (a full quota included), none. An error `change` throws wins over the abort.
   */
  write<T>(names: StoreName[], change: (get: (name: StoreName) => IDBObjectStore) => Promise<T>): Promise<T> {
    const tx = this.db.transaction(names, 'readwrite', { durability: 'strict' });
    return atomicWrite(
      tx,
      () => change((name) => tx.objectStore(name)),
      (error) => writeFailure(error, 'data store', 'Delete files or vector stores, or free space'),
    );
  }
}
