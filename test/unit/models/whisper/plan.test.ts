import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { speechPlan, toOriginal, windowAudio, type Window } from '../../../../src/models/whisper/plan';

const chunking = { threshold: 0.5, paddingMs: 0, silenceMs: 200 };
const FRAME = 512;
/** Speech probabilities: 1 inside the given frame ranges, 0 elsewhere. */
function speech(frames: number, ranges: [number, number][]): Float32Array {
  const out = new Float32Array(frames);
  for (const [from, to] of ranges) out.fill(1, from, to);
  return out;
}

describe('speechPlan', () => {
  it('no speech, no windows; speech regions without the silence between them, at most 30 s a window', () => {
    expect(speechPlan(new Float32Array(1000), 1000 * FRAME, chunking)).toEqual([]);
    // Speech at frames 100–200 and 800–900 (3.2 s each, within 25.6 s) and 2000–2100.
    const plan = speechPlan(
      speech(3000, [
        [100, 200],
        [800, 900],
        [2000, 2100],
      ]),
      3000 * FRAME,
      chunking,
    );
    expect(plan.map((w) => w.spans)).toEqual([
      [
        { start: 100 * FRAME, end: 200 * FRAME },
        { start: 800 * FRAME, end: 900 * FRAME },
      ],
      [{ start: 2000 * FRAME, end: 2100 * FRAME }],
    ]);
    for (const window of plan)
      expect(windowAudio(new Float32Array(3000 * FRAME), window).length).toBeLessThanOrEqual(480000);
  });
});

describe('toOriginal and windowAudio', () => {
  const window: Window = {
    spans: [
      { start: 16000, end: 32000 },
      { start: 80000, end: 96000 },
    ],
    keepFrom: 0,
    keepTo: Infinity,
  };
  it('maps window time back across the left-out silence; seams go to the later start, or with end the earlier end', () => {
    expect(toOriginal(window, 0)).toBe(1);
    expect(toOriginal(window, 0.5)).toBe(1.5);
    expect(toOriginal(window, 1)).toBe(5);
    expect(toOriginal(window, 1, 'end')).toBe(2);
    expect(toOriginal(window, 1.25)).toBe(5.25);
    expect(toOriginal(window, 29, 'end')).toBe(6);
  });
  it('puts the spans back to back, each sample where toOriginal says', () => {
    const samples = Float32Array.from({ length: 100000 }, (_, i) => i);
    const audio = windowAudio(samples, window);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: audio.length - 1 }), (i) => {
        expect(audio[i]).toBe(Math.round(toOriginal(window, i / 16000) * 16000));
      }),
    );
  });
});
