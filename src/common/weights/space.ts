import { type Candidate, type StoreError, quotaError } from './errors';
import { allFileUrls, candidates, deleteModel, usedBytes } from './idb';
import { broadcast } from './progress';

let persistAsked = false;

/** Asks once per context that the origin's storage be persistent (the browser may say no). */
async function askPersist(): Promise<void> {
  if (persistAsked) return;
  persistAsked = true;
  await globalThis.navigator?.storage?.persist?.().catch(() => false);
}

export interface SpaceRequest {
  /** Bytes about to be written. */
  needed: number;
  /** The model being loaded: never evicted for itself. */
  model: string | undefined;
  budget: number | undefined;
  file: string;
  url: string;
}

/**
 * Makes room for `needed` bytes before a download: evicts least recently used models past the
 * byte budget, then checks the browser's estimate. Throws a quota error that says what could go.
 */
export async function ensureSpace(request: SpaceRequest): Promise<void> {
  const { needed, model, budget, file, url } = request;
  if (needed <= 0) return;
  if (budget !== undefined) {
    const free = budget - (await usedBytes(await allFileUrls()));
    if (needed > free) {
      const plan = planEviction(await candidates(model), needed, free);
      if (!plan.fits) throw quotaError(file, url, needed, free, plan.evict, 'budget');
      for (const victim of plan.evict) {
        await deleteModel(victim.id);
        broadcast({ type: 'evicted', model: victim.id });
      }
    }
  }
  await askPersist();
  const estimate = await globalThis.navigator?.storage?.estimate?.();
  if (estimate?.quota === undefined) return;
  const free = estimate.quota - (estimate.usage ?? 0);
  if (needed > free) throw quotaError(file, url, needed, free, await candidates(model), 'quota');
}

/** The clear error for a write the browser refused (QuotaExceededError): what was needed, what is free, what could go. */
export async function quotaFailure(request: SpaceRequest): Promise<StoreError> {
  const { needed, model, budget, file, url } = request;
  const evictable = await candidates(model);
  if (budget !== undefined) {
    const free = budget - (await usedBytes(await allFileUrls()));
    if (needed > free) return quotaError(file, url, needed, free, evictable, 'budget');
  }
  const estimate = await globalThis.navigator?.storage?.estimate?.().catch(() => undefined);
  const free = estimate?.quota === undefined ? 0 : estimate.quota - (estimate.usage ?? 0);
  return quotaError(file, url, needed, free, evictable, 'refused');
}

/** Least recently used models to delete so `needed` more bytes fit in `free`; `fits` false when even all of them are not enough. */
export function planEviction(
  candidates: Candidate[],
  needed: number,
  free: number,
): { evict: Candidate[]; fits: boolean } {
  const evict: Candidate[] = [];
  let room = free;
  for (const candidate of [...candidates].sort((a, b) => a.lastUsed - b.lastUsed)) {
    if (room >= needed) break;
    evict.push(candidate);
    room += candidate.bytes;
  }
  return { evict, fits: room >= needed };
}
