import { describe, expect, it } from 'vitest';
import { readSchedulerConfig, sigmaAt, timesteps } from '../../../../src/worker/images/schedule';
import { EULER_TURBO } from '../../../fixtures/diffusion/files';

describe('scheduler schedules', () => {
  it("SD-Turbo's one Euler step starts at t = 999, σ ≈ 14.6146", () => {
    const config = readSchedulerConfig(EULER_TURBO);
    expect(timesteps(config, 1)).toEqual([999]);
    expect(sigmaAt(config, 999)).toBeCloseTo(14.6146, 3);
    expect(timesteps(config, 4)).toEqual([999, 749, 499, 249]);
  });

  it("LCM takes diffusers' timesteps from its 50-step origin schedule", () => {
    const config = readSchedulerConfig({ ...EULER_TURBO, _class_name: 'LCMScheduler' });
    expect(timesteps(config, 4)).toEqual([999, 759, 499, 259]);
    expect(timesteps(config, 1)).toEqual([999]);
  });

  it('names what it does not support', () => {
    expect(() => readSchedulerConfig({ _class_name: 'DDIMScheduler' })).toThrow(/DDIMScheduler/);
    expect(() => readSchedulerConfig({ ...EULER_TURBO, prediction_type: 'v_prediction' })).toThrow(/v_prediction/);
  });
});
