import { readFile } from 'node:fs/promises';
import decode from 'audio-decode';
import { describe, expect, it } from 'vitest';
import { INDIC_CONFORMER_MEL, NemoMel } from '../../../../src/worker/transcription/indic-conformer/features';
import { SHARED_DIR } from '../../../support/shared';

/**
 * A second computation of NeMo's preprocessor, written from its definition: a plain O(n²) DFT,
 * librosa's Slaney mel filters built from their formula, float64 throughout.
 */
function reference(samples: Float32Array): { data: Float64Array; frames: number } {
  const { nFft, winLength, hopLength, features, preemph, sampleRate } = INDIC_CONFORMER_MEL;
  const x = Float64Array.from(samples, (v, i) => (i === 0 ? v : v - preemph * samples[i - 1]!));
  const half = nFft / 2;
  const at = (i: number) => x[i < 0 ? -i : i >= x.length ? 2 * (x.length - 1) - i : i]!;
  const window = new Float64Array(nFft);
  for (let i = 0; i < winLength; i++)
    window[(nFft - winLength) / 2 + i] = 0.5 * (1 - Math.cos((2 * Math.PI * i) / (winLength - 1)));
  const hzToMel = (f: number) => (f < 1000 ? f / (200 / 3) : 15 + Math.log(f / 1000) / (Math.log(6.4) / 27));
  const melToHz = (m: number) => (m < 15 ? (200 / 3) * m : 1000 * Math.exp((Math.log(6.4) / 27) * (m - 15)));
  const top = hzToMel(sampleRate / 2);
  const edges = Array.from({ length: features + 2 }, (_, i) => melToHz((top * i) / (features + 1)));
  const bins = half + 1;
  const fb = Array.from({ length: features }, (_, m) =>
    Array.from({ length: bins }, (_, k) => {
      const f = (k * sampleRate) / nFft;
      const lower = (f - edges[m]!) / (edges[m + 1]! - edges[m]!);
      const upper = (edges[m + 2]! - f) / (edges[m + 2]! - edges[m + 1]!);
      return (Math.max(0, Math.min(lower, upper)) * 2) / (edges[m + 2]! - edges[m]!);
    }),
  );
  const frames = Math.floor(samples.length / hopLength) + 1;
  const data = new Float64Array(features * frames);
  for (let t = 0; t < frames; t++) {
    const power = new Float64Array(bins);
    for (let k = 0; k < bins; k++) {
      let re = 0,
        im = 0;
      for (let i = 0; i < nFft; i++) {
        const v = at(t * hopLength + i - half) * window[i]!;
        re += v * Math.cos((2 * Math.PI * k * i) / nFft);
        im -= v * Math.sin((2 * Math.PI * k * i) / nFft);
      }
      power[k] = re * re + im * im;
    }
    for (let m = 0; m < features; m++) {
      let sum = 0;
      for (let k = 0; k < bins; k++) sum += fb[m]![k]! * power[k]!;
      data[m * frames + t] = Math.log(sum + 2 ** -24);
    }
  }
  for (let m = 0; m < features; m++) {
    const row = data.subarray(m * frames, (m + 1) * frames);
    const mean = row.reduce((a, b) => a + b, 0) / frames;
    const std = Math.sqrt(row.reduce((a, b) => a + (b - mean) ** 2, 0) / (frames - 1)) + 1e-5;
    for (let t = 0; t < frames; t++) row[t] = (row[t]! - mean) / std;
  }
  return { data, frames };
}

async function jfk16k(seconds: number): Promise<Float32Array> {
  const audio = await decode(await readFile(`${SHARED_DIR}audio/jfk.flac`));
  const channel = audio.channelData[0]!;
  const ratio = audio.sampleRate / 16000;
  return Float32Array.from({ length: Math.floor(seconds * 16000) }, (_, i) => channel[Math.floor(i * ratio)] ?? 0);
}

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
};

describe('IndicConformer features (NeMo AudioToMelSpectrogramPreprocessor)', () => {
  it('match a plain-DFT float64 reference on 2 s of jfk.flac: max abs diff < 1e-5', async () => {
    const samples = await jfk16k(2);
    const actual = new NemoMel().extract(samples);
    const expected = reference(samples);
    expect(actual.frames).toBe(201);
    expect(actual.data.length).toBe(80 * 201);
    const diff = maxAbsDiff(actual.data, expected.data);
    console.log(`IndicConformer log-mel vs reference: max abs diff ${diff.toExponential(2)}`);
    expect(diff).toBeLessThan(1e-5);
  });

  it('match the reference on a short odd-length tone with silence (edges and reflect padding)', () => {
    const samples = Float32Array.from({ length: 5003 }, (_, i) =>
      i > 4000 ? 0 : 0.3 * Math.sin((2 * Math.PI * 523 * i) / 16000),
    );
    const actual = new NemoMel().extract(samples);
    const expected = reference(samples);
    expect(actual.frames).toBe(32);
    expect(maxAbsDiff(actual.data, expected.data)).toBeLessThan(1e-5);
  });

  it('normalises each feature to zero mean and unit (n − 1) deviation', async () => {
    const { data, frames } = new NemoMel().extract(await jfk16k(1));
    for (const m of [0, 40, 79]) {
      const row = data.subarray(m * frames, (m + 1) * frames);
      const mean = row.reduce((a, b) => a + b, 0) / frames;
      const std = Math.sqrt(row.reduce((a, b) => a + (b - mean) ** 2, 0) / (frames - 1));
      expect(Math.abs(mean)).toBeLessThan(1e-5);
      expect(std).toBeCloseTo(1, 3);
    }
  });
});
