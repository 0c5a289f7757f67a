import { EngineError, messageOf } from '../../protocol/errors';
import type { ModelJob } from '../../protocol/jobs';
import type { FileLoader } from '../../protocol/weights';
import { isStoreFull, pullCommand, storeLoader } from '../../common/weights';
import { counted } from './footprint';

/**
 * A weight store out of room (quota or budget) as the 507 `quota_exceeded` every full quota answers,
 * the store's message (bytes needed, what `ai.models.delete` could free) unchanged; else undefined.
 */
export const storeFull = (error: unknown): EngineError | undefined =>
  isStoreFull(error) ? new EngineError('storage_full', error.message, 'quota_exceeded') : undefined;

/**
 * The one model a worker keeps loaded: loaded through the weight store on first use, kept while
 * jobs ask for the same source, dtype and backend, forgotten when loading fails (`unavailable`,
 * naming it; `storage_full` when the store has no room for its files).
 */
export function modelSlot<T, J extends ModelJob = ModelJob>(
  what: string,
  load: (loader: FileLoader, request: Omit<J, 'model' | 'base' | 'store'>) => Promise<T>,
) {
  let current: { key: string; ready: Promise<T> } | undefined;
  return (job: J): Promise<T> => {
    const key = JSON.stringify([job.base, job.dtype, job.backend, job.capture]);
    if (current?.key !== key) {
      const { model, base, store, ...request } = job;
      const ready = load(counted(storeLoader(base, { ...store, model, pull: pullCommand(model) })), request).catch(
        (error: unknown) => {
          current = undefined;
          throw (
            storeFull(error) ??
            new EngineError(
              'unavailable',
              `The ${what} could not be loaded from ${job.base}: ${messageOf(error)}`,
              'model_unavailable',
              'model',
            )
          );
        },
      );
      current = { key, ready };
    }
    return current.ready;
  };
}
