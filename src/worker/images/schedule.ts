/** The fields of diffusers' scheduler_config.json the runtime reads. */
export interface SchedulerConfig {
  kind: 'euler' | 'euler-ancestral' | 'lcm';
  trainSteps: number;
  /** ᾱ_t for t = 0 … trainSteps − 1. */
  alphasCumprod: Float64Array;
  spacing: 'trailing' | 'leading' | 'linspace';
  /** LCM: the training schedule's step count that its timesteps are taken from. */
  originalSteps: number;
}

const KINDS: Record<string, SchedulerConfig['kind']> = {
  EulerDiscreteScheduler: 'euler',
  EulerAncestralDiscreteScheduler: 'euler-ancestral',
  LCMScheduler: 'lcm',
};

/** Reads scheduler_config.json; throws naming what is not supported (only ε-prediction is). */
export function readSchedulerConfig(json: Record<string, unknown>): SchedulerConfig {
  const kind = KINDS[String(json._class_name)];
  if (!kind)
    throw new Error(`Scheduler ${String(json._class_name)} is not supported (Euler, Euler ancestral and LCM are).`);
  const prediction = json.prediction_type ?? 'epsilon';
  if (prediction !== 'epsilon') throw new Error(`prediction_type ${String(prediction)} is not supported (epsilon is).`);
  const schedule = json.beta_schedule ?? 'scaled_linear';
  if (schedule !== 'scaled_linear' && schedule !== 'linear')
    throw new Error(`beta_schedule ${String(schedule)} is not supported.`);
  const trainSteps = Number(json.num_train_timesteps ?? 1000);
  const start = Number(json.beta_start ?? 0.00085);
  const end = Number(json.beta_end ?? 0.012);
  const alphasCumprod = new Float64Array(trainSteps);
  let product = 1;
  for (let t = 0; t < trainSteps; t++) {
    const f = trainSteps === 1 ? 0 : t / (trainSteps - 1);
    const beta =
      schedule === 'linear'
        ? start + f * (end - start)
        : (Math.sqrt(start) + f * (Math.sqrt(end) - Math.sqrt(start))) ** 2;
    product *= 1 - beta;
    alphasCumprod[t] = product;
  }
  const spacing = String(json.timestep_spacing ?? (kind === 'lcm' ? 'leading' : 'linspace'));
  if (spacing !== 'trailing' && spacing !== 'leading' && spacing !== 'linspace')
    throw new Error(`timestep_spacing ${spacing} is not supported.`);
  return { kind, trainSteps, alphasCumprod, spacing, originalSteps: Number(json.original_inference_steps ?? 50) };
}

/** σ_t = √((1 − ᾱ_t) / ᾱ_t), linearly interpolated between integer timesteps. */
export function sigmaAt(config: SchedulerConfig, t: number): number {
  const low = Math.floor(t);
  const high = Math.min(low + 1, config.trainSteps - 1);
  const sigma = (i: number) => Math.sqrt((1 - config.alphasCumprod[i]!) / config.alphasCumprod[i]!);
  return sigma(low) + (t - low) * (sigma(high) - sigma(low));
}

/** The timesteps of an `steps`-step run, from noisiest to cleanest, as diffusers spaces them. */
export function timesteps(config: SchedulerConfig, steps: number): number[] {
  const T = config.trainSteps;
  if (config.kind === 'lcm') {
    const c = Math.floor(T / config.originalSteps);
    const origin = Array.from({ length: config.originalSteps }, (_, i) => (i + 1) * c - 1).reverse();
    const count = Math.min(steps, origin.length);
    return Array.from({ length: count }, (_, i) => origin[Math.floor((i * origin.length) / count)]!);
  }
  if (config.spacing === 'trailing')
    return Array.from({ length: steps }, (_, i) => Math.round(T - (i * T) / steps) - 1);
  if (config.spacing === 'leading') {
    const ratio = Math.floor(T / steps);
    return Array.from({ length: steps }, (_, i) => (steps - 1 - i) * ratio + 1);
  }
  return Array.from({ length: steps }, (_, i) => (steps === 1 ? T - 1 : (T - 1) * (1 - i / (steps - 1))));
}
