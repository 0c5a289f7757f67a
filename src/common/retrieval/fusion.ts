import type { Ranked } from './top-k';

/** Reciprocal-rank fusion constant (Cormack et al.; what most hybrid search engines use). */
export const RRF_K = 60;

/**
 * Reciprocal-rank fusion of ranked lists: Σ 1 / (RRF_K + rank), divided by what first place in
 * every list earns, so a fused score lies in (0, 1] and 1 means first everywhere.
 */
export function fuseRanks(lists: Ranked[][]): Ranked[] {
  const fused = new Map<string, number>();
  for (const list of lists)
    list.forEach(({ id }, rank) => fused.set(id, (fused.get(id) ?? 0) + 1 / (RRF_K + rank + 1)));
  const best = lists.length / (RRF_K + 1);
  return [...fused]
    .map(([id, score]) => ({ id, score: score / best }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
}
