import { describe, expect, it } from 'vitest';
import { Seen } from '../../../src/worker/collections/seen';

describe('Seen', () => {
  it('covers a version once every write up to it is seen, in any order; a gap stays until a reset', () => {
    const seen = new Seen();
    expect(seen.covers(0)).toBe(true);
    seen.saw(2);
    expect(seen.covers(1)).toBe(false);
    seen.saw(1);
    expect(seen.covers(2)).toBe(true);
    seen.saw(4);
    seen.saw(5);
    expect(seen.covers(4)).toBe(false);
    seen.reset(5);
    expect(seen.covers(5)).toBe(true);
    seen.saw(3);
    seen.saw(6);
    expect(seen.covers(6)).toBe(true);
  });
});
