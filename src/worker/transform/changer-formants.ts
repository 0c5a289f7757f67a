import FFT from 'fft.js';

/** Quefrency below which the cepstrum describes the spectral envelope (formants), in seconds. */
const LIFTER_SECONDS = 0.002;
/** Gain limits of the envelope correction, so holes in the envelope do not blow up. */
const MIN_GAIN = 1 / 30;
const MAX_GAIN = 30;

const hann = (size: number) =>
  Float32Array.from({ length: size }, (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / size));

/** Moves one frame's spectral envelope by `alpha` (formant frequencies × alpha), keeping its harmonics. */
class EnvelopeWarper {
  private readonly fft: FFT;
  private readonly spectrum: Float64Array;
  private readonly cepstrum: Float64Array;
  private readonly envelope: Float64Array;
  private readonly logMagnitude: Float64Array;
  private readonly lifter: number;

  constructor(
    readonly size: number,
    sampleRate: number,
  ) {
    this.fft = new FFT(size);
    this.spectrum = new Float64Array(2 * size);
    this.cepstrum = new Float64Array(2 * size);
    this.envelope = new Float64Array(2 * size);
    this.logMagnitude = new Float64Array(size);
    this.lifter = Math.max(4, Math.round(sampleRate * LIFTER_SECONDS));
  }

  /** Warps `frame` (already windowed) in place. */
  warp(frame: Float64Array, alpha: number): void {
    const { size, spectrum, cepstrum, envelope, logMagnitude } = this;
    const half = size / 2;
    this.fft.realTransform(spectrum, frame);
    this.fft.completeSpectrum(spectrum);
    for (let k = 0; k <= half; k++) {
      const re = spectrum[2 * k]!;
      const im = spectrum[2 * k + 1]!;
      logMagnitude[k] = logMagnitude[(size - k) % size] = 0.5 * Math.log(re * re + im * im + 1e-18);
    }
    this.fft.realTransform(cepstrum, logMagnitude);
    logMagnitude.fill(0);
    for (let n = 0; n < this.lifter; n++) logMagnitude[n] = logMagnitude[(size - n) % size] = cepstrum[2 * n]! / size;
    this.fft.realTransform(envelope, logMagnitude);
    const at = (bin: number) => {
      const clamped = Math.min(half, bin);
      const low = Math.floor(clamped);
      const high = Math.min(half, low + 1);
      return envelope[2 * low]! + (clamped - low) * (envelope[2 * high]! - envelope[2 * low]!);
    };
    for (let k = 0; k <= half; k++) {
      const gain = Math.min(MAX_GAIN, Math.max(MIN_GAIN, Math.exp(at(k / alpha) - envelope[2 * k]!)));
      spectrum[2 * k]! *= gain;
      spectrum[2 * k + 1]! *= gain;
      if (k > 0 && k < half) {
        spectrum[2 * (size - k)]! *= gain;
        spectrum[2 * (size - k) + 1]! *= gain;
      }
    }
    this.fft.inverseTransform(cepstrum, spectrum);
    for (let n = 0; n < size; n++) frame[n] = cepstrum[2 * n]!;
  }
}

/**
 * Scales the formants (the spectral envelope) of mono audio without moving its pitch: STFT with
 * cepstral envelopes, each frame's envelope stretched by `alphaAt(sample)`, then overlap-add.
 * Frames sit in the middle of a buffer twice their length, so the (zero-phase) filtering spreads
 * both ways without wrapping around. Same length
 * out; frames whose alpha is 1 pass through unchanged.
 */
export function warpFormants(
  samples: Float32Array,
  sampleRate: number,
  alphaAt: (sample: number) => number,
): Float32Array {
  const size = 2 ** Math.ceil(Math.log2(sampleRate * 0.025));
  const hop = size / 4;
  const window = hann(size);
  const warper = new EnvelopeWarper(2 * size, sampleRate);
  const padded = new Float32Array(samples.length + 3 * size);
  padded.set(samples, size);
  // Accumulators run half a frame ahead of `padded`: frame[n] belongs at padded[start + n - half].
  const sum = new Float64Array(padded.length + 2 * size);
  const weight = new Float64Array(padded.length + 2 * size);
  const frame = new Float64Array(2 * size);
  const half = size / 2;
  for (let start = 0; start + size <= padded.length; start += hop) {
    frame.fill(0);
    for (let n = 0; n < size; n++) frame[half + n] = padded[start + n]! * window[n]!;
    const alpha = alphaAt(start + half - size);
    if (Math.abs(alpha - 1) > 1e-3) warper.warp(frame, alpha);
    for (let n = 0; n < 2 * size; n++) sum[start + n]! += frame[n]!;
    for (let n = 0; n < size; n++) weight[start + half + n]! += window[n]!;
  }
  const offset = size + half;
  return samples.map((_, i) => (weight[i + offset]! > 1e-6 ? sum[i + offset]! / weight[i + offset]! : 0));
}
