import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { speechPlan, toOriginal, windowAudio, type Window } from '../../../../src/worker/transcription/whisper/plan';

const chunking = { threshold: 0.5, paddingMs: 0, silenceMs: 200 };
const FRAME = 512;
/** Speech probabilities: 1 inside the given frame ranges, 0 elsewhere. */
function speech(frames: number, ranges: [number, number][]): Float32Array {
  const out = new Float32Array(frames);
  for (const [from, to] of ranges) out.fill(1, from, to);
  return out;
}

describe('speechPlan', () => {
  it('no speech, no windows; speech regions packed up to 30 s of speech however far apart, the silence left out', () => {
    expect(speechPlan(new Float32Array(1000), 1000 * FRAME, chunking)).toEqual([]);
    // Regions of 12.8 s (400 frames) with pauses of 32 s to 64 s between them.
    const ranges: [number, number][] = [
      [100, 500],
      [1500, 1900],
      [3900, 4300],
      [5300, 5400],
    ];
    const plan = speechPlan(speech(6000, ranges), 6000 * FRAME, chunking);
    const span = ([from, to]: [number, number]) => ({ start: from * FRAME, end: to * FRAME });
    expect(plan.map((w) => w.spans)).toEqual([
      [span(ranges[0]!), span(ranges[1]!)],
      [span(ranges[2]!), span(ranges[3]!)],
    ]);
    for (const window of plan)
      expect(windowAudio(new Float32Array(6000 * FRAME), window).length).toBeLessThanOrEqual(480000);
  });
  it('cuts a region longer than 30 s into windows of at most 30 s', () => {
    const plan = speechPlan(speech(3000, [[0, 2500]]), 3000 * FRAME, chunking);
    expect(plan.length).toBeGreaterThan(1);
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
