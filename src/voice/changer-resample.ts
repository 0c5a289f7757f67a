/** Zero crossings of the interpolation kernel on each side, at full bandwidth. */
const ZERO_CROSSINGS = 12;

/** Table steps per zero crossing. */
const RESOLUTION = 512;

/** The Hann-windowed sinc kernel at |x| = index / RESOLUTION zero crossings. */
const KERNEL = Float32Array.from({ length: ZERO_CROSSINGS * RESOLUTION + 2 }, (_, index) => {
  const x = index / RESOLUTION;
  if (x >= ZERO_CROSSINGS) return 0;
  const sinc = x === 0 ? 1 : Math.sin(Math.PI * x) / (Math.PI * x);
  return sinc * (0.5 + 0.5 * Math.cos((Math.PI * x) / ZERO_CROSSINGS));
});

function kernel(x: number): number {
  const at = Math.abs(x) * RESOLUTION;
  const index = Math.floor(at);
  if (index >= KERNEL.length - 1) return 0;
  return KERNEL[index]! + (at - index) * (KERNEL[index + 1]! - KERNEL[index]!);
}

/** Band-limited value of `signal` at fractional position `position`, low-passed at `cutoff` × Nyquist. */
function interpolate(signal: Float32Array, position: number, cutoff: number): number {
  const reach = ZERO_CROSSINGS / cutoff;
  const first = Math.max(0, Math.ceil(position - reach));
  const last = Math.min(signal.length - 1, Math.floor(position + reach));
  let sum = 0;
  let weight = 0;
  for (let n = first; n <= last; n++) {
    const w = kernel(cutoff * (n - position));
    sum += signal[n]! * w;
    weight += w;
  }
  return weight > 1e-6 ? sum / weight : 0;
}

/**
 * Plays a time-stretched signal back faster or slower so its pitch moves by a factor per block:
 * block i of the original (hop samples, stretched by Sonic to hop × factors[i] / speed) becomes
 * hop / speed samples again, its pitch and formants × factors[i]. Output is `length` samples.
 */
export function pitchByPlayback(stretched: Float32Array, hop: number, factors: Float32Array, speed: number, length: number): Float32Array {
  const outHop = hop / speed;
  const starts = new Float64Array(factors.length + 1);
  factors.forEach((factor, i) => (starts[i + 1] = starts[i]! + (hop * factor) / speed));
  const output = new Float32Array(length);
  for (let v = 0; v < length; v++) {
    const i = Math.min(factors.length - 1, Math.floor(v / outHop));
    const factor = factors[i]!;
    const position = starts[i]! + (v - i * outHop) * factor;
    output[v] = interpolate(stretched, position, Math.min(1, 1 / factor) * 0.95);
  }
  return output;
}
