/**
 * Formant measurement for tests, independent of the engine's cepstral method: the average LPC
 * envelope of the loud frames, and the frequency scale that best maps one envelope onto another.
 */

const ORDER = 18;
const POINTS = 400;

function autocorrelation(frame: Float64Array, order: number): Float64Array {
  const r = new Float64Array(order + 1);
  for (let lag = 0; lag <= order; lag++) {
    let sum = 0;
    for (let i = lag; i < frame.length; i++) sum += frame[i]! * frame[i - lag]!;
    r[lag] = sum;
  }
  return r;
}

/** Levinson–Durbin: LPC coefficients a[0..order] (a[0] = 1). */
function levinson(r: Float64Array, order: number): Float64Array {
  const a = new Float64Array(order + 1);
  a[0] = 1;
  let error = r[0]! * (1 + 1e-9);
  for (let i = 1; i <= order; i++) {
    let acc = r[i]!;
    for (let j = 1; j < i; j++) acc += a[j]! * r[i - j]!;
    const k = -acc / error;
    const previous = a.slice();
    for (let j = 1; j < i; j++) a[j] = previous[j]! + k * previous[i - j]!;
    a[i] = k;
    error *= 1 - k * k;
  }
  return a;
}

/** LPC envelope in dB at POINTS frequencies from 0 to Nyquist. */
function lpcEnvelope(a: Float64Array): Float64Array {
  return Float64Array.from({ length: POINTS }, (_, p) => {
    const w = (Math.PI * p) / POINTS;
    let re = 0;
    let im = 0;
    a.forEach((c, n) => {
      re += c * Math.cos(w * n);
      im -= c * Math.sin(w * n);
    });
    return -10 * Math.log10(re * re + im * im);
  });
}

/** LPC envelopes (dB) of 30 ms frames every 10 ms; frames more than 20 dB below the loudest are null. */
export function envelopes(samples: Float32Array, sampleRate: number): (Float64Array | null)[] {
  const size = Math.round(sampleRate * 0.03);
  const hop = Math.round(sampleRate * 0.01);
  const window = Float64Array.from({ length: size }, (_, i) => 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (size - 1)));
  const frames: Float64Array[] = [];
  for (let start = 0; start + size <= samples.length; start += hop) {
    frames.push(
      Float64Array.from(
        { length: size },
        (_, i) => (samples[start + i]! - 0.97 * (samples[start + i - 1] ?? 0)) * window[i]!,
      ),
    );
  }
  const energy = frames.map((f) => f.reduce((s, v) => s + v * v, 0));
  const loudest = Math.max(...energy);
  return frames.map((frame, i) =>
    energy[i]! < loudest / 100 ? null : lpcEnvelope(levinson(autocorrelation(frame, ORDER), ORDER)),
  );
}

/** The frequency scale s for which `after(f)` best matches `before(f / s)` from 300 Hz to 4 kHz (least squares, means removed). */
function bestScale(before: Float64Array, after: Float64Array, sampleRate: number): number {
  const hzPerPoint = sampleRate / 2 / POINTS;
  const at = (curve: Float64Array, hz: number) => {
    const x = Math.min(POINTS - 1, hz / hzPerPoint);
    const i = Math.floor(x);
    return curve[i]! + (x - i) * ((curve[Math.min(POINTS - 1, i + 1)] ?? curve[i]!) - curve[i]!);
  };
  const hz = Array.from({ length: 120 }, (_, i) => 300 + (i * (4000 - 300)) / 119);
  const x = hz.map((f) => at(after, f));
  const mx = x.reduce((a, b) => a + b) / x.length;
  let best = 1;
  let bestError = Infinity;
  for (let s = 0.6; s <= 1.6; s += 0.005) {
    const y = hz.map((f) => at(before, f / s));
    const my = y.reduce((a, b) => a + b) / y.length;
    const error = x.reduce((sum, v, i) => sum + (v - mx - (y[i]! - my)) ** 2, 0);
    if (error < bestError) {
      bestError = error;
      best = s;
    }
  }
  return best;
}

/**
 * How far the formants moved from `input` to `output` (same timing, same rate; 16 kHz works
 * best): the median over frames loud in both of the per-frame best frequency scale.
 */
export function formantScaleBetween(input: Float32Array, output: Float32Array, sampleRate: number): number {
  const before = envelopes(input, sampleRate);
  const after = envelopes(output, sampleRate);
  const scales: number[] = [];
  before.forEach((envelope, i) => {
    const other = after[i];
    if (envelope && other) scales.push(bestScale(envelope, other, sampleRate));
  });
  scales.sort((a, b) => a - b);
  return scales[scales.length >> 1]!;
}
