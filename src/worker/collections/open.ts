import { EngineError, messageOf } from '../../protocol/errors';

/**
 * A collection opened once per worker (the first call's database name wins), retried after a
 * failure, which answers `storage_unavailable` naming `what` ("memory store", "data store").
 * Returns `answer(name, operation)`: runs `operation` on the opened collection.
 */
export function opener<S>(open: (name: string) => Promise<S>, what: string) {
  let opened: Promise<S> | undefined;
  const collection = (name: string): Promise<S> => {
    opened ??= open(name).catch((error: unknown) => {
      opened = undefined;
      throw new EngineError(
        'unavailable',
        `The ${what} could not be opened (IndexedDB): ${messageOf(error)}`,
        'storage_unavailable',
      );
    });
    return opened;
  };
  return async <T>(name: string, operation: (collection: S) => Promise<T>): Promise<T> =>
    operation(await collection(name));
}
