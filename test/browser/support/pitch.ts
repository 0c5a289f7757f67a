/**
 * A small F0 (pitch) estimator for tests: YIN per frame with an energy gate.
 * Shared with the voice-transform tests (voice changer, speech-to-speech): keep it dependency-free
 * so it runs in node (vitest) and inside a Chromium page alike.
 */

export interface PitchOptions {
  minHz?: number;
  maxHz?: number;
  frameMs?: number;
  hopMs?: number;
  /** YIN's absolute threshold on the cumulative-mean-normalised difference. */
  threshold?: number;
  /** Frames quieter than this fraction of the loudest frame's RMS count as unvoiced. */
  silence?: number;
}

export interface PitchStats {
  /** Median F0 of the voiced frames, in Hz (NaN when none are voiced). */
  median: number;
  /** Standard deviation of the voiced frames' F0, in semitones. */
  spreadSemitones: number;
  /** 90th minus 10th percentile of the voiced frames' F0, in semitones. */
  rangeSemitones: number;
  voicedFrames: number;
  frames: number;
}

const rms = (frame: Float32Array) => Math.sqrt(frame.reduce((sum, x) => sum + x * x, 0) / frame.length);

function yinFrame(frame: Float32Array, sampleRate: number, minLag: number, maxLag: number, threshold: number): number {
  const diff = new Float32Array(maxLag + 1);
  const width = frame.length - maxLag;
  for (let lag = 1; lag <= maxLag; lag++) {
    let sum = 0;
    for (let i = 0; i < width; i++) {
      const d = frame[i]! - frame[i + lag]!;
      sum += d * d;
    }
    diff[lag] = sum;
  }
  let running = 0;
  const cmnd = new Float32Array(maxLag + 1).fill(1);
  for (let lag = 1; lag <= maxLag; lag++) {
    running += diff[lag]!;
    cmnd[lag] = running > 0 ? (diff[lag]! * lag) / running : 1;
  }
  let best = -1;
  for (let lag = minLag; lag <= maxLag; lag++) {
    if (cmnd[lag]! < threshold) {
      while (lag + 1 <= maxLag && cmnd[lag + 1]! < cmnd[lag]!) lag++;
      best = lag;
      break;
    }
  }
  if (best < 0) return NaN;
  const a = cmnd[best - 1] ?? cmnd[best]!;
  const b = cmnd[best]!;
  const c = cmnd[best + 1] ?? cmnd[best]!;
  const denominator = a - 2 * b + c;
  const shift = denominator !== 0 ? (0.5 * (a - c)) / denominator : 0;
  return sampleRate / (best + Math.max(-1, Math.min(1, shift)));
}

/** F0 per frame in Hz; NaN marks unvoiced or silent frames. */
export function pitchTrack(samples: Float32Array, sampleRate: number, options: PitchOptions = {}): number[] {
  const { minHz = 60, maxHz = 500, frameMs = 40, hopMs = 10, threshold = 0.15, silence = 0.05 } = options;
  const minLag = Math.floor(sampleRate / maxHz);
  const maxLag = Math.ceil(sampleRate / minHz);
  const frameLength = Math.max(Math.round((sampleRate * frameMs) / 1000), maxLag * 2);
  const hop = Math.round((sampleRate * hopMs) / 1000);
  const frames: Float32Array[] = [];
  for (let start = 0; start + frameLength <= samples.length; start += hop)
    frames.push(samples.subarray(start, start + frameLength));
  const loudness = frames.map(rms);
  const gate = Math.max(0, ...loudness) * silence;
  return frames.map((frame, i) => (loudness[i]! < gate ? NaN : yinFrame(frame, sampleRate, minLag, maxLag, threshold)));
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

/** Median F0 and how widely it moves, over the voiced frames. */
export function pitchStats(samples: Float32Array, sampleRate: number, options: PitchOptions = {}): PitchStats {
  const track = pitchTrack(samples, sampleRate, options);
  const voiced = track.filter((f0) => Number.isFinite(f0)).sort((a, b) => a - b);
  if (voiced.length === 0)
    return { median: NaN, spreadSemitones: NaN, rangeSemitones: NaN, voicedFrames: 0, frames: track.length };
  const semitones = voiced.map((f0) => 12 * Math.log2(f0));
  const mean = semitones.reduce((a, b) => a + b, 0) / semitones.length;
  const variance = semitones.reduce((sum, s) => sum + (s - mean) ** 2, 0) / semitones.length;
  return {
    median: percentile(voiced, 0.5),
    spreadSemitones: Math.sqrt(variance),
    rangeSemitones: 12 * Math.log2(percentile(voiced, 0.9) / percentile(voiced, 0.1)),
    voicedFrames: voiced.length,
    frames: track.length,
  };
}
