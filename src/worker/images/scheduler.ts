import type { SeededNoise } from './noise';
import { sigmaAt, timesteps, type SchedulerConfig } from './schedule';

/** One sampling run: the UNet's timestep and input per step, and the update from its ε prediction. */
export interface Sampler {
  readonly timesteps: number[];
  /** Starting latents from unit noise. */
  initial(noise: Float32Array): Float32Array;
  /** Clean latents noised to step `i`'s level (image-to-image starts; kept regions while inpainting). */
  noised(clean: Float32Array, noise: Float32Array, i: number): Float32Array;
  /** The UNet's input at step `i` (Euler scales by 1/√(σ²+1)). */
  input(latents: Float32Array, i: number): Float32Array;
  /** The latents after step `i` given the predicted noise. */
  step(latents: Float32Array, eps: Float32Array, i: number, noise: SeededNoise): Float32Array;
}

const map = (a: Float32Array, f: (x: number, i: number) => number) => a.map((x, i) => f(x, i));

/** Euler and Euler ancestral over σ (Karras et al.'s ODE/SDE form, as diffusers steps it). */
function euler(config: SchedulerConfig, steps: number, ancestral: boolean): Sampler {
  const ts = timesteps(config, steps);
  const sigmas = [...ts.map((t) => sigmaAt(config, t)), 0];
  const first = sigmas[0]!;
  const initSigma =
    config.spacing === 'linspace' || config.spacing === 'trailing' ? first : Math.sqrt(first * first + 1);
  return {
    timesteps: ts,
    initial: (noise) => map(noise, (x) => x * initSigma),
    noised: (clean, noise, i) => map(clean, (x, j) => x + sigmas[i]! * noise[j]!),
    input: (latents, i) => map(latents, (x) => x / Math.sqrt(sigmas[i]! ** 2 + 1)),
    step(latents, eps, i, noise) {
      const sigma = sigmas[i]!;
      const next = sigmas[i + 1]!;
      if (!ancestral || next === 0) return map(latents, (x, j) => x + (next - sigma) * eps[j]!);
      const up = Math.sqrt((next ** 2 * (sigma ** 2 - next ** 2)) / sigma ** 2);
      const down = Math.sqrt(next ** 2 - up ** 2);
      const fresh = noise.normal(latents.length);
      return map(latents, (x, j) => x + (down - sigma) * eps[j]! + fresh[j]! * up);
    },
  };
}

/** LCM: a consistency-model estimate of x₀ at each step, re-noised to the next timestep. */
function lcm(config: SchedulerConfig, steps: number): Sampler {
  const ts = timesteps(config, steps);
  const alpha = (i: number) => (i < ts.length ? config.alphasCumprod[ts[i]!]! : 1);
  return {
    timesteps: ts,
    initial: (noise) => noise.slice(),
    noised: (clean, noise, i) => map(clean, (x, j) => Math.sqrt(alpha(i)) * x + Math.sqrt(1 - alpha(i)) * noise[j]!),
    input: (latents) => latents,
    step(latents, eps, i, noise) {
      const a = alpha(i);
      const scaled = ts[i]! * 10;
      const cSkip = 0.25 / (scaled * scaled + 0.25);
      const cOut = scaled / Math.sqrt(scaled * scaled + 0.25);
      const denoised = map(latents, (x, j) => cOut * ((x - Math.sqrt(1 - a) * eps[j]!) / Math.sqrt(a)) + cSkip * x);
      if (i === ts.length - 1) return denoised;
      const next = alpha(i + 1);
      const fresh = noise.normal(latents.length);
      return map(denoised, (x, j) => Math.sqrt(next) * x + Math.sqrt(1 - next) * fresh[j]!);
    },
  };
}

export function sampler(config: SchedulerConfig, steps: number): Sampler {
  if (!Number.isInteger(steps) || steps < 1 || steps > 50) throw new Error('steps must be an integer from 1 to 50.');
  if (config.kind === 'lcm') return lcm(config, steps);
  return euler(config, steps, config.kind === 'euler-ancestral');
}
