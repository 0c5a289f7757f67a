import { describe, expect, it } from 'vitest';
import { Resident } from '../../../src/worker/collections/resident';

const row = (id: string, x: number) => ({
  id,
  text: id,
  vector: new Float32Array([x, 1 - x]),
  metadata: {},
  scope: {},
});

describe('Resident', () => {
  it('loads a key page by page, mirrors writes only on a loaded index, and drops it', async () => {
    const resident = new Resident<ReturnType<typeof row>>();
    async function* pages() {
      yield [row('a', 1), row('b', 0)];
      yield [row('c', 1)];
    }
    resident.apply('s', [row('x', 1)], []);
    expect(resident.get('s')).toBeUndefined();
    const index = await resident.load('s', 2, pages());
    expect(resident.get('s')).toBe(index);
    expect(index.size).toBe(3);
    resident.apply('s', [row('d', 0)], ['a']);
    expect([...index.all()].map((r) => r.id).sort()).toEqual(['b', 'c', 'd']);
    expect(resident.fresh('s', 2).size).toBe(0);
    resident.drop('s');
    expect(resident.get('s')).toBeUndefined();
  });
});
