import type { Evictable } from './errors';

export interface Candidate extends Evictable {
  lastUsed: number;
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
