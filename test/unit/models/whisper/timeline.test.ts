import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { placeSegments } from '../../../../src/worker/transcription/whisper/timeline';

describe('placeSegments', () => {
  it('clamps into the audio, never goes back; text without length joins the next segment, blanks go', () => {
    const placed = placeSegments(
      [
        { start: -1, end: 2, text: ' a' },
        { start: 37.32, end: 33.92, text: ' inverted' },
        { start: 1, end: 5, text: ' overlaps' },
        { start: 6, end: 7, text: '  ' },
        { start: 57, end: 120, text: ' past the end' },
        { start: 97, end: 120, text: ' after it' },
      ],
      100,
    );
    expect(placed.map((s) => [s.start, s.end, s.text])).toEqual([
      [0, 2, ' a'],
      [2, 5, ' inverted overlaps'],
      [57, 100, ' past the end after it'],
    ]);
    expect(placeSegments([{ start: 5, end: 5, text: ' x' }], 3)).toEqual([{ start: 0, end: 3, text: ' x' }]);
    // Text without times alone spans the given stretch (the speech) instead.
    expect(placeSegments([{ start: 9, end: 9, text: ' x' }], 20, { start: 6, end: 12.5 })).toEqual([
      { start: 6, end: 12.5, text: ' x' },
    ]);
  });
  it('on any times: ordered, non-overlapping, 0 ≤ start < end ≤ duration', () => {
    const time = fc.oneof(fc.double({ min: -50, max: 500 }), fc.constant(Number.NaN), fc.constant(Infinity));
    fc.assert(
      fc.property(
        fc.array(fc.record({ start: time, end: time, text: fc.string({ maxLength: 3 }) })),
        fc.double({ min: 0, max: 300, noNaN: true }),
        (segments, duration) => {
          let last = 0;
          const placed = placeSegments(segments, duration);
          // Every character is kept but the whitespace of blank segments, which are dropped.
          const visible = (list: { text: string }[]) => list.map((s) => s.text.replace(/\s/g, '')).join('');
          if (duration >= 0.001) expect(visible(placed)).toBe(visible(segments));
          for (const s of placed) {
            expect(s.start).toBeGreaterThanOrEqual(last);
            expect(s.end).toBeGreaterThan(s.start);
            expect(s.end).toBeLessThanOrEqual(duration + 0.0005);
            last = s.end;
          }
        },
      ),
    );
  });
});
