import type { ScenarioResult } from '../types';

/** One row of bench/results/latest.json (the runner adds the ratio and the load). */
export const row = (
  id: string,
  metric: string,
  unit: string,
  value: number,
  baseline: ScenarioResult['baseline'],
  higherIsBetter: boolean,
  notes: Record<string, unknown>,
): ScenarioResult => ({ id, metric, unit, value, baseline, higherIsBetter, notes });

/** A baseline a figure is compared with: its name, its value (null when it did not run), and the suffix of its row's id. */
export interface Against {
  suffix: string;
  name: string;
  value: number | null | undefined;
}

/**
 * One figure against several baselines: a row per baseline, ids `id + suffix` (a baseline that did
 * not run gives a row without one, so a narrowed run keeps every id).
 */
export function rowsAgainst(
  id: string,
  metric: string,
  unit: string,
  value: number,
  higherIsBetter: boolean,
  notes: Record<string, unknown>,
  baselines: Against[],
): ScenarioResult[] {
  return baselines.map(({ suffix, name, value: other }) =>
    row(`${id}${suffix}`, metric, unit, value, other == null ? null : { name, value: other }, higherIsBetter, notes),
  );
}
