import { EngineError } from '../../protocol/errors';

/** The page's own IndexedDB databases (memory, data): a request as a promise, and why a write failed. */
export const requestDone = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });

/**
 * Opens a collection's database, creating or migrating its schema in `upgrade`. Another tab
 * upgrading the schema closes this connection instead of being blocked by it.
 */
export async function openDatabase(
  name: string,
  version: number,
  upgrade: (db: IDBDatabase) => void,
): Promise<IDBDatabase> {
  const request = indexedDB.open(name, version);
  request.onupgradeneeded = () => upgrade(request.result);
  const db = await requestDone(request);
  db.onversionchange = () => db.close();
  return db;
}

/**
 * An aborted write transaction as an engine error (nothing of it was written): a full quota names
 * what the user can delete (`remedy`), anything else says which store (`what`) could not write.
 */
export function writeFailure(error: DOMException | null, what: string, remedy: string): EngineError {
  if (error?.name === 'QuotaExceededError')
    return new EngineError(
      'storage_full',
      `The browser's storage quota for this site is full: nothing was stored. ${remedy}, then retry.`,
      'quota_exceeded',
    );
  return new EngineError(
    'internal',
    `The ${what} could not write: ${error?.message ?? 'transaction aborted'}.`,
    'storage_error',
  );
}

/**
 * Runs `work` in one readwrite transaction: everything it queues lands, or on any failure (a full
 * quota included) nothing does. An error `work` throws wins over the abort it causes (a DOMException
 * an IndexedDB call throws is a failed write, as `failure` words it).
 */
export function atomicWrite<T>(
  tx: IDBTransaction,
  work: () => Promise<T>,
  failure: (error: DOMException | null) => Error,
): Promise<T> {
  const finished = new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(failure(tx.error));
    tx.onerror = (event) => event.preventDefault();
  });
  const running = work();
  running.catch(() => {
    try {
      tx.abort();
    } catch {
      // already finished
    }
  });
  return Promise.all([running, finished]).then(
    ([result]) => result,
    async (error) => {
      const decided = await running.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      // A request that throws (a full quota reported at once) is a failed write like an abort.
      if (decided instanceof DOMException) throw failure(decided);
      throw decided ?? error;
    },
  );
}
