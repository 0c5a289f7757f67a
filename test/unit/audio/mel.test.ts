import { readFile } from 'node:fs/promises';
import { WhisperFeatureExtractor } from '@huggingface/transformers';
import decode from 'audio-decode';
import { describe, expect, it } from 'vitest';
import { WHISPER_MEL, WhisperMel } from '../../../src/common/audio/mel';
import { SHARED_DIR } from '../../support/shared';

/** jfk.flac as 16 kHz mono; the same samples go to both extractors, so the resampling method does not matter. */
async function jfk16k(): Promise<Float32Array> {
  const audio = await decode(await readFile(`${SHARED_DIR}audio/jfk.flac`));
  const channels = audio.channelData;
  const length = Math.floor((channels[0]!.length * 16000) / audio.sampleRate);
  return Float32Array.from({ length }, (_, i) => {
    const at = (i * audio.sampleRate) / 16000;
    const j = Math.floor(at);
    const frac = at - j;
    let sum = 0;
    for (const channel of channels) sum += channel[j]! * (1 - frac) + (channel[j + 1] ?? 0) * frac;
    return sum / channels.length;
  });
}

describe('WhisperMel', () => {
  it('equals transformers.js WhisperFeatureExtractor on jfk.flac (max abs diff < 1e-4)', async () => {
    const samples = await jfk16k();
    const reference = new WhisperFeatureExtractor({
      feature_size: 80,
      sampling_rate: 16000,
      hop_length: 160,
      chunk_length: 30,
      n_fft: 400,
      n_samples: 480000,
      nb_max_frames: 3000,
    });
    const { input_features } = await reference(samples);
    const expected = input_features.data as Float32Array;
    const actual = new WhisperMel(WHISPER_MEL).extract(samples);
    expect(input_features.dims).toEqual([1, 80, 3000]);
    expect(actual.length).toBe(expected.length);
    let maxDiff = 0;
    for (let i = 0; i < actual.length; i++) maxDiff = Math.max(maxDiff, Math.abs(actual[i]! - expected[i]!));
    expect(maxDiff).toBeLessThan(1e-4);
  });

  it('cuts audio longer than a window and pads shorter audio with silence', () => {
    const mel = new WhisperMel();
    const tone = Float32Array.from({ length: 8000 }, (_, i) => Math.sin((2 * Math.PI * 440 * i) / 16000));
    const features = mel.extract(tone);
    expect(features.length).toBe(80 * 3000);
    const longer = new Float32Array(600000);
    longer.set(tone);
    expect(mel.extract(longer)).toEqual(features);
  });
});
