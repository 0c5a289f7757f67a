import FFT from 'fft.js';

/** What Whisper's preprocessor_config.json says about its features. */
export interface MelConfig {
  /** Mel bins: 80, or 128 for large-v3. */
  featureSize: number;
  nFft: number;
  hopLength: number;
  samplingRate: number;
  /** Samples per window (480 000 = 30 s). */
  nSamples: number;
}

export const WHISPER_MEL: MelConfig = {
  featureSize: 80,
  nFft: 400,
  hopLength: 160,
  samplingRate: 16000,
  nSamples: 480000,
};

const slaneyHzToMel = (hz: number) => (hz >= 1000 ? 15 + Math.log(hz / 1000) / (Math.log(6.4) / 27) : (3 * hz) / 200);
const slaneyMelToHz = (mel: number) =>
  mel >= 15 ? 1000 * Math.exp((Math.log(6.4) / 27) * (mel - 15)) : (200 * mel) / 3;

/** One triangular mel filter, kept sparse: weights of FFT bins first … first + weights.length − 1. */
export interface Filter {
  first: number;
  weights: Float64Array;
}

/** Slaney-normalised triangular filters on the Slaney mel scale, 0 Hz to 8 kHz, kept sparse. */
export function melFilters(bins: number, mels: number, sampleRate: number): Filter[] {
  const melMax = slaneyHzToMel(8000);
  const edges = Array.from({ length: mels + 2 }, (_, i) => slaneyMelToHz((melMax * i) / (mels + 1)));
  const binHz = Math.floor(sampleRate / 2) / (bins - 1);
  return Array.from({ length: mels }, (_, m) => {
    const [lo, mid, hi] = [edges[m]!, edges[m + 1]!, edges[m + 2]!];
    const norm = 2 / (hi - lo);
    const row = Float64Array.from({ length: bins }, (_, k) => {
      const hz = k * binHz;
      return Math.max(0, Math.min((hz - lo) / (mid - lo), (hi - hz) / (hi - mid))) * norm;
    });
    const first = Math.max(
      0,
      row.findIndex((w) => w > 0),
    );
    let last = bins - 1;
    while (last > first && row[last] === 0) last--;
    return { first, weights: row.slice(first, last + 1) };
  });
}

/**
 * A DFT of any length n through power-of-two FFTs (Bluestein's chirp-z), taking two real frames at once
 * as the real and imaginary parts of one complex input.
 */
class PairedRealDft {
  private readonly fft: FFT;
  private readonly chirp: Float64Array;
  private readonly kernel: Float64Array;
  private readonly a: Float64Array;
  private readonly spectrum: Float64Array;
  private readonly product: Float64Array;

  constructor(private readonly n: number) {
    let size = 1;
    while (size < 2 * n - 1) size *= 2;
    this.fft = new FFT(size);
    this.chirp = new Float64Array(2 * n);
    for (let k = 0; k < n; k++) {
      const angle = (Math.PI * ((k * k) % (2 * n))) / n;
      this.chirp[2 * k] = Math.cos(angle);
      this.chirp[2 * k + 1] = -Math.sin(angle);
    }
    const b = new Float64Array(2 * size);
    for (let k = 0; k < n; k++) {
      const re = this.chirp[2 * k]!;
      const im = -this.chirp[2 * k + 1]!;
      b[2 * k] = re;
      b[2 * k + 1] = im;
      if (k > 0) {
        b[2 * (size - k)] = re;
        b[2 * (size - k) + 1] = im;
      }
    }
    this.kernel = new Float64Array(2 * size);
    this.fft.transform(this.kernel, b);
    this.a = new Float64Array(2 * size);
    this.spectrum = new Float64Array(2 * size);
    this.product = new Float64Array(2 * size);
  }

  /** Power spectra |X[k]|² for k = 0 … n/2 of the real frames x and y. */
  power(x: Float64Array, y: Float64Array, outX: Float64Array, outY: Float64Array): void {
    const { n, chirp, a, spectrum, product, kernel } = this;
    a.fill(0);
    for (let k = 0; k < n; k++) {
      const cr = chirp[2 * k]!,
        ci = chirp[2 * k + 1]!;
      const xr = x[k]!,
        xi = y[k]!;
      a[2 * k] = xr * cr - xi * ci;
      a[2 * k + 1] = xr * ci + xi * cr;
    }
    this.fft.transform(spectrum, a);
    for (let i = 0; i < spectrum.length; i += 2) {
      const sr = spectrum[i]!,
        si = spectrum[i + 1]!,
        kr = kernel[i]!,
        ki = kernel[i + 1]!;
      product[i] = sr * kr - si * ki;
      product[i + 1] = sr * ki + si * kr;
    }
    this.fft.inverseTransform(spectrum, product);
    const re = (k: number) => spectrum[2 * k]! * chirp[2 * k]! - spectrum[2 * k + 1]! * chirp[2 * k + 1]!;
    const im = (k: number) => spectrum[2 * k]! * chirp[2 * k + 1]! + spectrum[2 * k + 1]! * chirp[2 * k]!;
    for (let k = 0; k <= n / 2; k++) {
      const m = (n - k) % n;
      const zr = re(k),
        zi = im(k),
        wr = re(m),
        wi = -im(m);
      const xr = (zr + wr) / 2,
        xi = (zi + wi) / 2;
      const yr = (zi - wi) / 2,
        yi = (wr - zr) / 2;
      outX[k] = xr * xr + xi * xi;
      outY[k] = yr * yr + yi * yi;
    }
  }
}

/** Computes Whisper's log-mel features, [featureSize, nSamples / hopLength] row-major. */
export class WhisperMel {
  readonly frames: number;
  private readonly filters: Filter[];
  private readonly window: Float64Array;
  private readonly dft: PairedRealDft;

  constructor(readonly config: MelConfig = WHISPER_MEL) {
    const bins = Math.floor(config.nFft / 2) + 1;
    this.frames = Math.floor(config.nSamples / config.hopLength);
    this.filters = melFilters(bins, config.featureSize, config.samplingRate);
    this.window = Float64Array.from(
      { length: config.nFft },
      (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / config.nFft),
    );
    this.dft = new PairedRealDft(config.nFft);
  }

  /** Features of one window: the audio is cut or zero-padded to nSamples first. */
  extract(audio: Float32Array): Float32Array {
    const { nFft, hopLength, nSamples, featureSize } = this.config;
    const half = nFft / 2;
    const padded = new Float64Array(nSamples + nFft);
    padded.set(audio.subarray(0, nSamples), half);
    for (let i = 1; i <= half; i++) {
      padded[half - i] = padded[half + i]!;
      padded[half + nSamples - 1 + i] = padded[half + nSamples - 1 - i]!;
    }
    const bins = half + 1;
    const frameA = new Float64Array(nFft),
      frameB = new Float64Array(nFft);
    const powerA = new Float64Array(bins),
      powerB = new Float64Array(bins);
    const out = new Float32Array(featureSize * this.frames);
    const melOf = (power: Float64Array, t: number) => {
      for (let m = 0; m < featureSize; m++) {
        const { first, weights } = this.filters[m]!;
        let sum = 0;
        for (let k = 0; k < weights.length; k++) sum += weights[k]! * power[first + k]!;
        out[m * this.frames + t] = Math.log10(Math.max(sum, 1e-10));
      }
    };
    for (let t = 0; t < this.frames; t += 2) {
      for (let i = 0; i < nFft; i++) {
        frameA[i] = padded[t * hopLength + i]! * this.window[i]!;
        frameB[i] = t + 1 < this.frames ? padded[(t + 1) * hopLength + i]! * this.window[i]! : 0;
      }
      this.dft.power(frameA, frameB, powerA, powerB);
      melOf(powerA, t);
      if (t + 1 < this.frames) melOf(powerB, t + 1);
    }
    let max = -Infinity;
    for (const value of out) if (value > max) max = value;
    for (let i = 0; i < out.length; i++) out[i] = (Math.max(out[i]!, max - 8) + 4) / 4;
    return out;
  }
}
