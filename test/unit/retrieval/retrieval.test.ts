import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../../../src/common/retrieval/bm25';
import { matches } from '../../../src/common/retrieval/filter';
import type { Filter } from '../../../src/protocol/collections';
import { fuseRanks } from '../../../src/common/retrieval/fusion';
import { RetrievalIndex, type Indexed } from '../../../src/common/retrieval/index';
import { inScope } from '../../../src/common/retrieval/scope';
import { words } from '../../../src/common/retrieval/tokenize';
import { SeededRandom } from '../../fixtures/llm/random';

function unit(random: SeededRandom, dim: number): Float32Array {
  const v = new Float32Array(dim);
  random.fillUniform(v, 0, 1);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

describe('words', () => {
  it('keeps Hindi and Tamil words whole (vowel signs, viramas) and lower-cases Latin', () => {
    expect(words('नमस्ते, मुझे चाय पसंद है।')).toEqual(['नमस्ते', 'मुझे', 'चाय', 'पसंद', 'है']);
    expect(words('எனக்கு காபி பிடிக்கும்.')).toEqual(['எனக்கு', 'காபி', 'பிடிக்கும்']);
    expect(words('Hello, WORLD! ₹100')).toEqual(['hello', 'world', '100']);
  });
});

describe('Bm25Index', () => {
  it('scores as the Okapi formula (k1 1.2, b 0.75) and forgets removed documents', () => {
    const index = new Bm25Index();
    index.add('a', 'tea tea coffee');
    index.add('b', 'coffee');
    index.add('c', 'water juice milk soda');
    const avg = (3 + 1 + 4) / 3;
    const idf = (n: number) => Math.log(1 + (3 - n + 0.5) / (n + 0.5));
    const term = (tf: number, len: number, n: number) => (idf(n) * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * len) / avg));
    const scores = index.scores('tea coffee');
    expect(scores.get('a')).toBeCloseTo(term(2, 3, 1) + term(1, 3, 2), 10);
    expect(scores.get('b')).toBeCloseTo(term(1, 1, 2), 10);
    expect(scores.has('c')).toBe(false);
    index.remove('a');
    expect(index.size).toBe(2);
    expect([...index.scores('tea').keys()]).toEqual([]);
  });

  it('finds Hindi and Tamil words', () => {
    const index = new Bm25Index();
    index.add('hi', 'मुझे चाय पसंद है');
    index.add('ta', 'எனக்கு காபி பிடிக்கும்');
    index.add('en', 'I like tea');
    expect([...index.scores('चाय').keys()]).toEqual(['hi']);
    expect([...index.scores('காபி பிடிக்கும்').keys()]).toEqual(['ta']);
    // A vowel sign alone is not a word: no match on a fragment.
    expect(index.scores('ा').size).toBe(0);
  });

  it('scores as a fresh index after removals, re-adds and compaction; top is the best of scores', () => {
    const vocabulary = 'tea coffee milk water juice soda rice bread'.split(' ');
    const random = new SeededRandom(7);
    const text = () =>
      Array.from(
        { length: 1 + Math.floor(random.uniform() * 6) },
        () => vocabulary[Math.floor(random.uniform() * 8)],
      ).join(' ');
    const index = new Bm25Index();
    const docs = new Map<string, string>();
    for (let round = 0; round < 6; round++) {
      for (let i = 0; i < 40; i++) {
        const id = `d${Math.floor(random.uniform() * 60)}`;
        if (random.uniform() < 0.45) {
          index.remove(id);
          docs.delete(id);
        } else {
          docs.set(id, text());
          index.add(id, docs.get(id)!);
        }
      }
      const fresh = new Bm25Index();
      for (const [id, words] of docs) fresh.add(id, words);
      expect(index.size).toBe(docs.size);
      for (const query of ['tea', 'coffee milk', 'soda rice bread tea']) {
        const got = index.scores(query);
        const want = fresh.scores(query);
        expect([...got.keys()].sort()).toEqual([...want.keys()].sort());
        for (const [id, score] of want) expect(got.get(id)).toBeCloseTo(score, 10);
        const best = [...want.values()].sort((a, b) => b - a).slice(0, 5);
        const top = index.top(query, 5);
        top.forEach((hit, i) => expect(hit.score).toBeCloseTo(best[i]!, 10));
        expect(top.length).toBe(best.length);
      }
    }
  });
});

describe('matches', () => {
  const metadata = { topic: 'food', rating: 4, year: 2024, vegan: true };
  const cases: [Filter, boolean][] = [
    [{ type: 'eq', key: 'topic', value: 'food' }, true],
    [{ type: 'ne', key: 'topic', value: 'food' }, false],
    [{ type: 'ne', key: 'missing', value: 'x' }, true],
    [{ type: 'gt', key: 'rating', value: 3 }, true],
    [{ type: 'gte', key: 'rating', value: 4 }, true],
    [{ type: 'lt', key: 'rating', value: 4 }, false],
    [{ type: 'lte', key: 'year', value: 2024 }, true],
    [{ type: 'gt', key: 'rating', value: '3' }, false],
    [{ type: 'in', key: 'topic', value: ['food', 'travel'] }, true],
    [{ type: 'nin', key: 'topic', value: ['food'] }, false],
    [{ type: 'eq', key: 'vegan', value: true }, true],
    [
      {
        type: 'and',
        filters: [
          { type: 'eq', key: 'topic', value: 'food' },
          {
            type: 'or',
            filters: [
              { type: 'lt', key: 'rating', value: 2 },
              { type: 'eq', key: 'year', value: 2024 },
            ],
          },
        ],
      },
      true,
    ],
    [
      {
        type: 'or',
        filters: [
          { type: 'lt', key: 'rating', value: 2 },
          { type: 'eq', key: 'year', value: 1999 },
        ],
      },
      false,
    ],
  ];
  it.each(cases)('%j → %s', (filter, expected) => expect(matches(filter, metadata)).toBe(expected));
});

describe('inScope', () => {
  it('equal fields; namespace by path prefix', () => {
    expect(inScope({ user_id: 'u1', agent_id: 'a' }, { user_id: 'u1' })).toBe(true);
    expect(inScope({ user_id: 'u1' }, { user_id: 'u1', agent_id: 'a' })).toBe(false);
    expect(inScope({ namespace: 'org/team/alice' }, { namespace: 'org/team' })).toBe(true);
    expect(inScope({ namespace: 'org/teamx' }, { namespace: 'org/team' })).toBe(false);
  });
});

describe('fuseRanks', () => {
  it('first in every list scores 1; found by one signal only scores less', () => {
    const fused = fuseRanks([
      [
        { id: 'a', score: 0.9 },
        { id: 'b', score: 0.5 },
      ],
      [
        { id: 'a', score: 7 },
        { id: 'c', score: 2 },
      ],
    ]);
    expect(fused[0]).toEqual({ id: 'a', score: 1 });
    expect(fused.map(({ id }) => id)).toEqual(['a', 'b', 'c']);
    expect(fused[1]!.score).toBeCloseTo(61 / 62 / 2, 10);
  });
});

describe('RetrievalIndex', () => {
  const dim = 16;
  const random = new SeededRandom(5);
  const items: Indexed[] = Array.from({ length: 3000 }, (_, i) => ({
    id: `m${i}`,
    text: `note ${i} ${i % 7 === 0 ? 'चाय' : 'coffee'}`,
    vector: unit(random, dim),
    metadata: { n: i, group: i % 3 === 0 ? 'a' : 'b' },
    scope: { user_id: `u${i % 4}` },
  }));

  it('semantic search equals a brute-force reference under scope and filters, after removals', () => {
    const index = new RetrievalIndex(dim);
    items.forEach((item) => index.put(item));
    for (let i = 0; i < 3000; i += 5) index.remove(`m${i}`);
    const query = unit(random, dim);
    const filters: Filter = {
      type: 'and',
      filters: [
        { type: 'eq', key: 'group', value: 'b' },
        { type: 'lt', key: 'n', value: 2500 },
      ],
    };
    const hits = index.search({
      text: '',
      vector: query,
      mode: 'semantic',
      limit: 25,
      scope: { user_id: 'u1' },
      filters,
    });
    const dot = (a: Float32Array) => a.reduce((sum, x, d) => sum + x * query[d]!, 0);
    const expected = items
      .filter(
        (item, i) =>
          i % 5 !== 0 &&
          item.scope.user_id === 'u1' &&
          item.metadata.group === 'b' &&
          (item.metadata.n as number) < 2500,
      )
      .map((item) => ({ id: item.id, score: dot(item.vector) }))
      .sort((a, b) => b.score - a.score)
      .slice(0, 25);
    expect(hits.map((hit) => hit.id)).toEqual(expected.map((hit) => hit.id));
    hits.forEach((hit, i) => expect(hit.score).toBeCloseTo(expected[i]!.score, 5));
  });

  it('keyword, hybrid and min_score', () => {
    const index = new RetrievalIndex(dim);
    items.slice(0, 100).forEach((item) => index.put(item));
    const keyword = index.search({ text: 'चाय', mode: 'keyword', limit: 100 });
    expect(keyword.map((hit) => hit.id).sort()).toEqual(
      items
        .slice(0, 100)
        .filter((_, i) => i % 7 === 0)
        .map((item) => item.id)
        .sort(),
    );
    const hybrid = index.search({ text: 'चाय', vector: items[14]!.vector, mode: 'hybrid', limit: 5 });
    // m14 is nearest by meaning and holds the word: it leads, just under a perfect 1 (others tie with it on words).
    expect(hybrid[0]!.id).toBe('m14');
    expect(hybrid[0]!.score).toBeGreaterThan(0.9);
    expect(hybrid[0]!.scores).toEqual({ semantic: expect.closeTo(1, 5), keyword: expect.any(Number) });
    const strict = index.search({ text: 'x', vector: items[3]!.vector, mode: 'semantic', limit: 10, minScore: 0.999 });
    expect(strict.map((hit) => hit.id)).toEqual(['m3']);
  });

  it('refuses vectors of another width', () => {
    const index = new RetrievalIndex(dim);
    expect(() => index.put({ ...items[0]!, vector: new Float32Array(8) })).toThrow(/8 dimensions/);
  });
});
