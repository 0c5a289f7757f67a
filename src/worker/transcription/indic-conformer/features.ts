import FFT from 'fft.js';
import { melFilters, type Filter } from '../../../common/audio/mel';

/**
 * NeMo's AudioToMelSpectrogramPreprocessor as IndicConformer's preprocessor.ts runs it (eval mode:
 * no dither). docs/runtimes/transcription.md says where each value comes from.
 */
export interface NemoMelConfig {
  sampleRate: number;
  /** 80 log-mel features. */
  features: number;
  nFft: number;
  /** Window length in samples (0.025 s), centred in nFft. */
  winLength: number;
  /** Hop in samples (0.01 s). */
  hopLength: number;
  preemph: number;
  /** Added before the log (NeMo's log_zero_guard_type 'add', value 2⁻²⁴). */
  logGuard: number;
  /** Added to each feature's standard deviation (NeMo's CONSTANT). */
  stdEpsilon: number;
}

export const INDIC_CONFORMER_MEL: NemoMelConfig = {
  sampleRate: 16000,
  features: 80,
  nFft: 512,
  winLength: 400,
  hopLength: 160,
  preemph: 0.97,
  logGuard: 2 ** -24,
  stdEpsilon: 1e-5,
};

/** Features of one clip: [features, frames] row-major, as the encoder's `audio_signal` wants them. */
export interface MelFeatures {
  data: Float32Array;
  frames: number;
}

/** Log-mel features with per-feature normalisation, 16 kHz mono in. */
export class NemoMel {
  private readonly fft: FFT;
  private readonly window: Float64Array;
  private readonly filters: Filter[];

  constructor(readonly config: NemoMelConfig = INDIC_CONFORMER_MEL) {
    const { nFft, winLength } = config;
    this.fft = new FFT(nFft);
    // torch.hann_window(winLength, periodic=False), zero-padded to nFft on both sides as torch.stft does.
    this.window = new Float64Array(nFft);
    const offset = Math.floor((nFft - winLength) / 2);
    for (let i = 0; i < winLength; i++)
      this.window[offset + i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (winLength - 1));
    this.filters = melFilters(nFft / 2 + 1, config.features, config.sampleRate);
  }

  /** Frames NeMo reports for `samples` samples (centred STFT): ⌊samples / hop⌋ + 1. */
  frames(samples: number): number {
    return Math.floor(samples / this.config.hopLength) + 1;
  }

  extract(samples: Float32Array): MelFeatures {
    const { nFft, hopLength, preemph, features, logGuard, stdEpsilon } = this.config;
    const n = samples.length;
    const half = nFft / 2;
    // Pre-emphasis, then reflect padding by nFft/2 on both sides (torch.stft, center=True).
    const padded = new Float64Array(n + nFft);
    for (let i = 0; i < n; i++) padded[half + i] = i === 0 ? samples[0]! : samples[i]! - preemph * samples[i - 1]!;
    for (let i = 1; i <= half; i++) {
      padded[half - i] = padded[half + Math.min(i, n - 1)]!;
      padded[half + n - 1 + i] = padded[half + Math.max(n - 1 - i, 0)]!;
    }
    const frames = this.frames(n);
    const out = new Float32Array(features * frames);
    const frame = new Array<number>(nFft);
    const spectrum = this.fft.createComplexArray() as number[];
    const power = new Float64Array(half + 1);
    for (let t = 0; t < frames; t++) {
      for (let i = 0; i < nFft; i++) frame[i] = padded[t * hopLength + i]! * this.window[i]!;
      this.fft.realTransform(spectrum, frame);
      for (let k = 0; k <= half; k++) power[k] = spectrum[2 * k]! ** 2 + spectrum[2 * k + 1]! ** 2;
      for (let m = 0; m < features; m++) {
        const { first, weights } = this.filters[m]!;
        let sum = 0;
        for (let k = 0; k < weights.length; k++) sum += weights[k]! * power[first + k]!;
        out[m * frames + t] = Math.log(sum + logGuard);
      }
    }
    // Per-feature normalisation over the frames: zero mean, unit (n − 1) standard deviation.
    for (let m = 0; m < features; m++) {
      const row = out.subarray(m * frames, (m + 1) * frames);
      let mean = 0;
      for (const value of row) mean += value;
      mean /= frames;
      let variance = 0;
      for (const value of row) variance += (value - mean) ** 2;
      const std = (frames > 1 ? Math.sqrt(variance / (frames - 1)) : 0) + stdEpsilon;
      for (let t = 0; t < frames; t++) row[t] = (row[t]! - mean) / std;
    }
    return { data: out, frames };
  }
}
