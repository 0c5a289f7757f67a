import { describe, expect, it } from 'vitest';
import { randomId, sortableId } from '../../../src/common/ids';
import { pageOf } from '../../../src/common/paging';

const rows = [3, 1, 2, 5, 4].map((n) => ({ id: `r${n}`, created_at: n }));

describe('pageOf', () => {
  it('lists newest first by default, oldest first with asc, and pages with after and before', () => {
    const ids = (page: { data: { id: string }[] }) => page.data.map((row) => row.id);
    expect(ids(pageOf(rows, { limit: 2, order: 'desc' }))).toEqual(['r5', 'r4']);
    expect(pageOf(rows, { limit: 2, order: 'desc' }).has_more).toBe(true);
    expect(ids(pageOf(rows, { limit: 2, order: 'asc', after: 'r2' }))).toEqual(['r3', 'r4']);
    const last = pageOf(rows, { limit: 10, order: 'asc', after: 'r3' });
    expect([ids(last), last.has_more]).toEqual([['r4', 'r5'], false]);
    expect(ids(pageOf(rows, { limit: 2, order: 'asc', before: 'r4' }))).toEqual(['r2', 'r3']);
  });

  it('names an unknown cursor as a 400', () => {
    expect(() => pageOf(rows, { limit: 2, order: 'asc', after: 'nope' })).toThrow(/'after' names no object/);
    expect(() => pageOf(rows, { limit: 2, order: 'asc', after: 'nope' }, 'memory')).toThrow(
      "'after' names no memory in this listing: 'nope'.",
    );
  });
});

describe('ids', () => {
  it('randomId: the prefix and two hex digits a byte', () => {
    expect(randomId('req_')).toMatch(/^req_[0-9a-f]{32}$/);
    expect(randomId('call_', 12)).toMatch(/^call_[0-9a-f]{24}$/);
  });

  it('sortableId sorts in creation order within one worker', () => {
    const ids = Array.from({ length: 50 }, () => sortableId('file-', 12));
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]).toMatch(/^file-[0-9a-f]{28}$/);
  });
});
