import type { Scope } from '../../protocol/collections';

/**
 * Whether an item's scope is inside `query`: every field the query names must be equal, except
 * `namespace`, which also takes items deeper in the path (`org/team` holds `org/team/alice`).
 */
export function inScope(item: Scope, query: Scope): boolean {
  for (const [key, value] of Object.entries(query)) {
    const actual = item[key];
    if (actual === value) continue;
    if (key === 'namespace' && actual !== undefined && actual.startsWith(`${value.replace(/\/+$/, '')}/`)) continue;
    return false;
  }
  return true;
}
