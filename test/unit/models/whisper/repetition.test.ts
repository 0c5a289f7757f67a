import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loopCut } from '../../../../src/worker/transcription/whisper/repetition';

const TS = 1000;
const isText = (token: number) => token < TS;

describe('loopCut', () => {
  it('cuts a loop after its first copy, timestamps between copies included', () => {
    const unit = [1, 2, 3, 4, 5, 6, 7];
    expect(loopCut([9, ...unit, ...unit, ...unit], isText)).toBe(8);
    const stamped = [TS, 9, TS + 1, ...[1, 2, 3, 4, 5, 6, 7].flatMap((t) => [t]), TS + 2];
    const tokens = [...stamped, TS + 3, ...unit, TS + 4, TS + 5, ...unit];
    expect(loopCut(tokens, isText)).toBe(3 + unit.length);
    expect(loopCut(Array(20).fill(4), isText)).toBe(1);
  });
  it('leaves short repeats and ordinary text alone', () => {
    expect(loopCut([1, 2, 1, 2, 1, 2], isText)).toBeUndefined();
    expect(loopCut(Array(19).fill(4), isText)).toBeUndefined();
    expect(loopCut([...Array(30).keys()], isText)).toBeUndefined();
  });
  it('on any tokens: the cut keeps a prefix that is itself no loop', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 80 }), (tokens) => {
        // Checked as the decoder does: after every token, stopping at the first cut.
        for (let n = 1; n <= tokens.length; n++) {
          const cut = loopCut(tokens.slice(0, n), isText);
          if (cut === undefined) continue;
          expect(cut).toBeLessThan(n);
          expect(loopCut(tokens.slice(0, cut), isText)).toBeUndefined();
          return;
        }
      }),
    );
  });
});
