import { afterEach, describe, expect, it, vi } from 'vitest';
import { SeededRandom } from '../../fixtures/llm/random';

type Vectors = typeof import('../../../src/common/retrieval/vectors');

/** Unit rows of an odd width (padded inside the index), written, overwritten and removed across many growths. */
function exercise({ VectorIndex }: Vectors) {
  const random = new SeededRandom(35);
  const dim = 37;
  const vector = () => {
    const v = new Float32Array(dim);
    random.fillUniform(v, -1, 1);
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  };
  const index = new VectorIndex(dim, 64);
  const rows = new Map<string, Float32Array>();
  const put = (id: string) => {
    const v = vector();
    rows.set(id, v);
    index.set(id, v);
  };
  // A row of NaN (41st) leaves a NaN score in the scratch space where a later row's padding lands.
  for (let i = 0; i < 40; i++) put(`r${i}`);
  index.set('nan', new Float32Array(dim).fill(NaN));
  index.top(vector(), 1);
  for (let i = 40; i < 3000; i++) put(`r${i}`);
  index.remove('nan');
  for (let i = 1; i < 3000; i += 7) {
    rows.delete(`r${i}`);
    index.remove(`r${i}`);
  }
  for (let i = 2; i < 3000; i += 11) put(`r${i}`);
  for (let i = 3000; i < 5000; i++) put(`r${i}`);
  const query = vector();
  const exact = new Map([...rows].map(([id, v]) => [id, v.reduce((sum, x, d) => sum + x * query[d]!, 0)]));
  const want = [...exact].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
  // Every row ranked, by its exact score (float32 sums: near-ties may swap).
  const got = index.top(query, rows.size);
  expect(index.size).toBe(rows.size);
  expect(got.map((hit) => hit.id).sort()).toEqual([...rows.keys()].sort());
  got.forEach((hit, i) => {
    expect(hit.score).toBeCloseTo(exact.get(hit.id)!, 5);
    expect(hit.score).toBeCloseTo(want[i]!.score, 5);
  });
  const odd = index.top(query, 10, (id) => Number(id.slice(1)) % 2 === 1);
  const wantOdd = want.filter((hit) => Number(hit.id.slice(1)) % 2 === 1).slice(0, 10);
  odd.forEach((hit, i) => expect(hit.score).toBeCloseTo(wantOdd[i]!.score, 5));
}

describe('VectorIndex', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  it('scans with the WebAssembly SIMD kernel: exact top-k across growth, overwrites and removals', async () => {
    const vectors = await import('../../../src/common/retrieval/vectors');
    const { dotKernel } = await import('../../../src/common/retrieval/dot-kernel');
    expect(dotKernel()).toBeTypeOf('function');
    exercise(vectors);
  });

  it('scans with a plain loop, the same answers, where WebAssembly is missing', async () => {
    vi.resetModules();
    vi.stubGlobal('WebAssembly', undefined);
    const vectors = await import('../../../src/common/retrieval/vectors');
    const { dotKernel } = await import('../../../src/common/retrieval/dot-kernel');
    expect(dotKernel()).toBeUndefined();
    exercise(vectors);
  });
});
