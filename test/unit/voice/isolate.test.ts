import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeMono } from '../../../src/common/audio/mono';
import { denoise48k, isolateVoice } from '../../../src/worker/transform/isolate';
import { trackPitch, medianF0 } from '../../../src/worker/transform/prosody-pitch';
import { SHARED_DIR } from '../../support/shared';

const correlation = (a: Float32Array, b: Float32Array, lag: number) => {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 2000; i < a.length - 2000; i++) {
    ab += a[i]! * b[i + lag]!;
    aa += a[i]! * a[i]!;
    bb += b[i + lag]! * b[i + lag]!;
  }
  return ab / Math.sqrt(aa * bb);
};

describe('RNNoise isolation', () => {
  it('keeps clean speech time-aligned: the model delay is compensated', async () => {
    const { samples } = await decodeMono(
      new Uint8Array(readFileSync(`${SHARED_DIR}audio/common_voice_en_59751.mp3`)),
      48000,
    );
    const out = await denoise48k(samples);
    expect(out.length).toBe(samples.length);
    const aligned = correlation(samples, out, 0);
    expect(aligned).toBeGreaterThan(0.8);
    for (const lag of [-960, -480, 480, 960]) expect(correlation(samples, out, lag)).toBeLessThan(aligned / 2);
  });

  it('answers at the input rate with the input length', async () => {
    const { samples } = await decodeMono(new Uint8Array(readFileSync(`${SHARED_DIR}audio/1272-141231-0002.mp3`)));
    const out = await isolateVoice(samples, 16000);
    expect(out.length).toBe(samples.length);
  });
});

describe('trackPitch', () => {
  it('finds the F0 of a vowel-like pulse train and leaves silence unvoiced', () => {
    const rate = 16000;
    const samples = new Float32Array(rate);
    for (let i = 0; i < rate / 2; i++)
      samples[i] = Math.sin((2 * Math.PI * 150 * i) / rate) + 0.5 * Math.sin((2 * Math.PI * 300 * i) / rate);
    const track = trackPitch(samples, rate);
    expect(track.f0.length).toBe(100);
    expect(medianF0(track)).toBeCloseTo(150, 0);
    expect(Number.isNaN(track.f0[90]!)).toBe(true);
  });
});
