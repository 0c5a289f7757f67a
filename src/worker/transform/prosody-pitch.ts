import { PitchDetector } from 'pitchy';

/** F0 per analysis hop; NaN marks unvoiced or silent hops. */
export interface PitchTrack {
  /** Seconds between successive values of f0 (value i describes the audio around i × hopSeconds). */
  hopSeconds: number;
  f0: Float32Array;
}

export interface TrackOptions {
  hopSeconds?: number;
  /** How many hops to describe. Default: enough to cover the audio. */
  hops?: number;
  windowSeconds?: number;
  minHz?: number;
  maxHz?: number;
  /** McLeod clarity below this is unvoiced. */
  clarity?: number;
  /** Hops quieter than this fraction of the loudest hop's RMS are unvoiced. */
  silence?: number;
}

const rms = (frame: Float32Array) => Math.sqrt(frame.reduce((sum, x) => sum + x * x, 0) / frame.length);

/** Tracks F0 with the McLeod pitch method (pitchy) over windows centred on each hop. */
export function trackPitch(samples: Float32Array, sampleRate: number, options: TrackOptions = {}): PitchTrack {
  const { hopSeconds = 0.01, windowSeconds = 0.04, minHz = 60, maxHz = 500, clarity = 0.9, silence = 0.03 } = options;
  const hops = options.hops ?? Math.ceil(samples.length / (sampleRate * hopSeconds));
  const size = Math.round(sampleRate * windowSeconds);
  const detector = PitchDetector.forFloat32Array(size);
  const padded = new Float32Array(samples.length + 2 * size);
  padded.set(samples, size);
  const frames = Array.from({ length: hops }, (_, i) => {
    const start = size + Math.round(i * hopSeconds * sampleRate) - (size >> 1);
    return padded.subarray(start, start + size);
  });
  const loudness = frames.map(rms);
  const gate = loudness.reduce((max, value) => Math.max(max, value), 0) * silence;
  const f0 = new Float32Array(hops).fill(NaN);
  frames.forEach((frame, i) => {
    if (loudness[i]! <= gate || frame.length < size) return;
    const [pitch, certainty] = detector.findPitch(frame, sampleRate);
    if (certainty >= clarity && pitch >= minHz && pitch <= maxHz) f0[i] = pitch;
  });
  return { hopSeconds, f0 };
}

/** The median of the voiced values, or NaN when nothing is voiced. */
export function medianF0(track: PitchTrack): number {
  const voiced = [...track.f0].filter(Number.isFinite).sort((a, b) => a - b);
  return voiced.length ? voiced[voiced.length >> 1]! : NaN;
}
