import { describe, expect, it } from 'vitest';
import { resample } from '../../../src/common/audio/resample';

const sine = (length: number, rate: number, hz: number) =>
  Float32Array.from({ length }, (_, i) => 0.5 * Math.sin((2 * Math.PI * hz * i) / rate));
const rms = (x: Float32Array) => Math.sqrt(x.reduce((sum, v) => sum + v * v, 0) / x.length);

describe('resample', () => {
  it.each([
    [44100, 16000],
    [16000, 48000],
    [22050, 16000],
    [48000, 44100],
  ])('%i → %i Hz keeps length, level and timing', async (from, to) => {
    const input = sine(from * 2, from, 440);
    const output = await resample(input, from, to);
    expect(output.length).toBe(Math.round((input.length * to) / from));
    const expected = sine(output.length, to, 440);
    expect(rms(output) / rms(expected)).toBeCloseTo(1, 2);
    const body = (x: Float32Array) => x.subarray(Math.round(to * 0.05), x.length - Math.round(to * 0.05));
    const error = body(output).map((v, i) => v - body(expected)[i]!);
    expect(rms(error) / rms(body(expected))).toBeLessThan(0.01);
    const tail = output.subarray(output.length - Math.round(to * 0.01));
    expect(rms(tail)).toBeGreaterThan(0.2);
  });

  it('returns a copy when the rates match', async () => {
    const input = sine(100, 16000, 440);
    const output = await resample(input, 16000, 16000);
    expect(output).not.toBe(input);
    expect([...output]).toEqual([...input]);
  });
});
