import { describe, expect, it } from 'vitest';
import { contourShape, KEEP_CONTOUR, pitchFactors } from '../../../src/worker/transform/prosody';

const track = (f0: number[]) => ({ hopSeconds: 0.01, f0: Float32Array.from(f0) });

describe('contourShape (voice changer)', () => {
  it('keeps the contour at the defaults and moves monotonically', () => {
    expect(contourShape(0.5, 0.35)).toEqual(KEEP_CONTOUR);
    expect(contourShape(0, 0.35).variation).toBeGreaterThan(1);
    expect(contourShape(1, 0.35).variation).toBe(0);
    expect(contourShape(0.5, 1).range).toBeGreaterThan(2);
    expect(contourShape(0.5, 0).range).toBeLessThan(0.7);
  });
});

describe('pitchFactors', () => {
  it('moves the median to the target and fills unvoiced hops from their neighbours', () => {
    const factors = pitchFactors(track([NaN, 100, 100, NaN, NaN, 100, 100, NaN]), 150, KEEP_CONTOUR);
    for (const factor of factors) expect(factor).toBeCloseTo(1.5, 5);
  });

  it('is 1 everywhere when nothing is voiced', () => {
    expect([...pitchFactors(track([NaN, NaN, NaN]), 200, KEEP_CONTOUR)]).toEqual([1, 1, 1]);
  });

  it('keeps the contour by default and widens it with range', () => {
    const glide = Array.from({ length: 200 }, (_, i) => 100 * 2 ** (i / 200));
    const out = (range: number) =>
      pitchFactors(track(glide), 200, { range, variation: 1 }).map((factor, i) => factor * glide[i]!);
    const semitones = (f: Float32Array) => 12 * Math.log2(f[180]! / f[20]!);
    const source = 12 * Math.log2(glide[180]! / glide[20]!);
    expect(semitones(out(1))).toBeCloseTo(source, 1);
    expect(semitones(out(2))).toBeCloseTo(2 * source, 0);
  });

  it('flattens fast variation when variation is 0', () => {
    const wobbly = Array.from({ length: 200 }, (_, i) => 120 * 2 ** (Math.sin((2 * Math.PI * i) / 6) / 12));
    const out = pitchFactors(track(wobbly), 120, { range: 1, variation: 0 }).map((factor, i) => factor * wobbly[i]!);
    const semitoneSpread = (f: ArrayLike<number>) =>
      12 * Math.log2(Math.max(...Array.from(f).slice(10, 190)) / Math.min(...Array.from(f).slice(10, 190)));
    expect(semitoneSpread(out)).toBeLessThan(0.4 * semitoneSpread(wobbly));
  });
});
