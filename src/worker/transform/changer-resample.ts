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

/** Cumulative block boundaries from block lengths: [0, l0, l0 + l1, ...]. */
export function boundsOf(lengths: ArrayLike<number>): Float64Array {
  const bounds = new Float64Array(lengths.length + 1);
  for (let i = 0; i < lengths.length; i++) bounds[i + 1] = bounds[i]! + lengths[i]!;
  return bounds;
}

/**
 * Plays a signal back at a varying rate, like a tape: input block i (`from[i]` to `from[i + 1]`)
 * becomes output block i (`to[i]` to `to[i + 1]`), so its pitch and formants move by the ratio of
 * the two lengths. Band-limited (windowed sinc), so speeding up does not alias.
 */
export function playback(signal: Float32Array, from: Float64Array, to: Float64Array): Float32Array {
  const output = new Float32Array(Math.round(to[to.length - 1]!));
  let block = 0;
  for (let v = 0; v < output.length; v++) {
    while (block < to.length - 2 && v >= to[block + 1]!) block++;
    const rate = (from[block + 1]! - from[block]!) / (to[block + 1]! - to[block]!);
    const position = from[block]! + (v - to[block]!) * rate;
    output[v] = interpolate(signal, position, Math.min(1, 1 / rate) * 0.95);
  }
  return output;
}
