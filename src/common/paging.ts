import { invalidInput } from '../protocol/errors';
import type { ListParams, Page } from '../protocol/collections';

/**
 * OpenAI's list paging over rows with ids: by creation time (then id), `after` / `before` an id of
 * the listing; an unknown one is a 400 that says it names no `noun` ("memory", "object").
 */
export function pageOf<T extends { id: string; created_at: number }>(
  rows: T[],
  params: ListParams,
  noun = 'object',
): Page<T> {
  const sign = params.order === 'asc' ? 1 : -1;
  const sorted = [...rows].sort(
    (a, b) => sign * (a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  );
  const at = (id: string, param: string) => {
    const index = sorted.findIndex((row) => row.id === id);
    if (index < 0) throw invalidInput(`'${param}' names no ${noun} in this listing: '${id}'.`, param);
    return index;
  };
  let start = 0;
  let end = sorted.length;
  if (params.after !== undefined) start = at(params.after, 'after') + 1;
  if (params.before !== undefined) end = at(params.before, 'before');
  if (params.before !== undefined && params.after === undefined) start = Math.max(start, end - params.limit);
  const data = sorted.slice(start, Math.min(end, start + params.limit));
  return { data, has_more: start + params.limit < end };
}
