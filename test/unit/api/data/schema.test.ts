import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { addBatchSchema, chunkingSchema, searchSchema } from '../../../../src/page/api/_data-schema';

describe('data schemas', () => {
  it("accept OpenAI's chunking strategies and refuse an overlap over half the chunk", () => {
    expect(v.is(chunkingSchema, { type: 'auto' })).toBe(true);
    const ok = { type: 'static', static: { max_chunk_size_tokens: 800, chunk_overlap_tokens: 400 } };
    expect(v.is(chunkingSchema, ok)).toBe(true);
    expect(v.is(chunkingSchema, { ...ok, static: { max_chunk_size_tokens: 800, chunk_overlap_tokens: 401 } })).toBe(
      false,
    );
    expect(v.is(chunkingSchema, { ...ok, static: { max_chunk_size_tokens: 99, chunk_overlap_tokens: 0 } })).toBe(false);
  });

  it('search: 1–50 results, thresholds in [0, 1], compound filters, a non-empty query', () => {
    expect(v.parse(searchSchema, { query: 'tea' }).max_num_results).toBe(10);
    expect(v.is(searchSchema, { query: 'tea', max_num_results: 51 })).toBe(false);
    expect(v.is(searchSchema, { query: 'tea', ranking_options: { score_threshold: 1.5 } })).toBe(false);
    expect(v.is(searchSchema, { query: '  ' })).toBe(false);
    const filters = {
      type: 'or',
      filters: [
        { type: 'eq', key: 'a', value: 1 },
        { type: 'nin', key: 'b', value: ['x'] },
      ],
    };
    expect(v.is(searchSchema, { query: ['tea', 'chai'], filters, rewrite_query: true })).toBe(true);
  });

  it('a batch names file_ids or files, not both', () => {
    expect(v.is(addBatchSchema, { file_ids: ['file-1'] })).toBe(true);
    expect(v.is(addBatchSchema, { files: [{ file_id: 'file-1', attributes: { a: 1 } }] })).toBe(true);
    expect(v.is(addBatchSchema, { file_ids: ['file-1'], files: [] })).toBe(false);
    expect(v.is(addBatchSchema, {})).toBe(false);
  });
});
