import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeMono } from '../../../src/common/audio/mono';
import { changeVoice } from '../../../src/worker/transform/changer';
import { warpFormants } from '../../../src/worker/transform/changer-formants';
import { boundsOf, playback } from '../../../src/worker/transform/changer-resample';
import { formantScaleBetween } from '../../browser/support/audio-formants';
import { pitchStats } from '../../browser/support/pitch';
import { SHARED_DIR } from '../../support/shared';

const clip = () => decodeMono(new Uint8Array(readFileSync(`${SHARED_DIR}audio/1272-141231-0002.mp3`)), 16000);
const sine = (length: number, rate: number, hz: number) =>
  Float32Array.from({ length }, (_, i) => 0.5 * Math.sin((2 * Math.PI * hz * i) / rate));

describe('playback', () => {
  it('plays a block faster or slower like a tape, moving its pitch', () => {
    const input = sine(16000, 16000, 200);
    const faster = playback(input, boundsOf([16000]), boundsOf([16000 / 1.5]));
    expect(faster.length).toBe(Math.round(16000 / 1.5));
    expect(pitchStats(faster, 16000).median).toBeCloseTo(300, -1);
    const slower = playback(input, boundsOf([8000, 8000]), boundsOf([8000, 16000]));
    expect(slower.length).toBe(24000);
    expect(pitchStats(slower.subarray(0, 8000), 16000).median).toBeCloseTo(200, -1);
    expect(pitchStats(slower.subarray(8000), 16000).median).toBeCloseTo(100, -1);
  });
});

describe('warpFormants', () => {
  it('passes audio through unchanged at alpha 1 and scales the formants of real speech otherwise', async () => {
    const { samples } = await clip();
    expect([...warpFormants(samples, 16000, () => 1)]).toEqual([...samples]);
    for (const alpha of [0.85, 1.17]) {
      expect(
        formantScaleBetween(
          samples,
          warpFormants(samples, 16000, () => alpha),
          16000,
        ) / alpha,
      ).toBeCloseTo(1, 1);
    }
  });
});

describe('changeVoice', () => {
  it('moves the LibriSpeech clip to 200 Hz with formants × 1.17, same length, and time-stretches by speed', async () => {
    const { samples } = await clip();
    const out = await changeVoice(samples, 16000, { medianF0: 200, formantScale: 1.17 });
    expect(out.length).toBe(samples.length);
    expect(Math.abs(pitchStats(out, 16000).median / 200 - 1)).toBeLessThan(0.1);
    expect(Math.abs(formantScaleBetween(samples, out, 16000) / 1.17 - 1)).toBeLessThan(0.05);
    const fast = await changeVoice(samples, 16000, { medianF0: 200, formantScale: 1 }, { speed: 1.5 });
    expect(fast.length).toBe(Math.round(samples.length / 1.5));
  });
});
