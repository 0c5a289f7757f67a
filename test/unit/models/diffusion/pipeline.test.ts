import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDiffusion } from '../../../../src/worker/images/load';
import { diffusionFiles, EULER_TURBO } from '../../../fixtures/diffusion/files';
import { ensureTinyDiffusion } from '../../../fixtures/diffusion/ensure';
import { directoryLoader, maxAbsDiff } from '../encoder/support';
import { referenceImage } from '../../../fixtures/diffusion/reference';
import type { FileLoader } from '../../../../src/protocol/weights';
import { ort } from './node-ort';

const prompt = 'A Warli painting of a village dance';

/** The fixture directory with another scheduler_config.json. */
function withScheduler(dir: string, scheduler: object): FileLoader {
  const disk = directoryLoader(dir);
  const config = new TextEncoder().encode(JSON.stringify(scheduler));
  return {
    load: (file, options) =>
      file === 'scheduler/scheduler_config.json' ? Promise.resolve(config) : disk.load(file, options),
    has: disk.has,
  };
}

describe('diffusion runtime on the tiny diffusers export', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await ensureTinyDiffusion();
  });

  it('writes every file of the layout', () => {
    expect([...diffusionFiles(EULER_TURBO).keys()]).toEqual(
      expect.arrayContaining([
        'text_encoder/model.onnx',
        'unet/model.onnx',
        'vae_decoder/model.onnx',
        'vae_encoder/model.onnx',
        'scheduler/scheduler_config.json',
        'tokenizer/tokenizer.json',
      ]),
    );
  });

  for (const [kind, className, steps] of [
    ['euler', 'EulerDiscreteScheduler', 1],
    ['ancestral', 'EulerAncestralDiscreteScheduler', 4],
    ['lcm', 'LCMScheduler', 4],
  ] as const) {
    it(`${className}, ${steps} step(s): the same pixels as a second implementation for the same seed`, async () => {
      const pipeline = await loadDiffusion(ort, withScheduler(dir, { ...EULER_TURBO, _class_name: className }), 'wasm');
      const progress: number[] = [];
      const image = await pipeline.generate({ prompt, seed: 42, steps, onStep: (step) => void progress.push(step) });
      expect([image.width, image.height]).toEqual([64, 64]);
      expect(progress).toEqual(Array.from({ length: steps }, (_, i) => i + 1));
      const reference = await referenceImage(dir, prompt, 42, kind, steps);
      // Stated bound: at most 1 of 255 per channel (float32 rounding at a .5 boundary).
      expect(maxAbsDiff(image.rgba, reference)).toBeLessThanOrEqual(1);
      expect(new Set(image.rgba).size).toBeGreaterThan(8);
      const again = await pipeline.generate({ prompt, seed: 42, steps });
      expect(maxAbsDiff(again.rgba, image.rgba)).toBe(0);
      const other = await pipeline.generate({ prompt, seed: 7, steps });
      expect(maxAbsDiff(other.rgba, image.rgba)).toBeGreaterThan(10);
    });
  }

  it('stops between steps when aborted', async () => {
    const pipeline = await loadDiffusion(
      ort,
      withScheduler(dir, { ...EULER_TURBO, _class_name: 'LCMScheduler' }),
      'wasm',
    );
    const controller = new AbortController();
    const run = pipeline.generate({
      prompt,
      seed: 1,
      steps: 4,
      signal: controller.signal,
      onStep: (step) => void (step === 2 && controller.abort()),
    });
    await expect(run).rejects.toThrow(/abort/i);
  });

  it('reads the prompt through the CLIP tokenizer: a different prompt, a different image', async () => {
    const pipeline = await loadDiffusion(ort, directoryLoader(dir), 'wasm');
    const a = await pipeline.generate({ prompt, seed: 3, steps: 1 });
    const b = await pipeline.generate({ prompt: 'a peacock in a tree', seed: 3, steps: 1 });
    expect(maxAbsDiff(a.rgba, b.rgba)).toBeGreaterThan(0);
    expect(JSON.parse(await readFile(`${dir}/scheduler/scheduler_config.json`, 'utf8'))._class_name).toBe(
      'EulerDiscreteScheduler',
    );
  });

  it('stage by stage (memory short): one session alive at a time, released after each stage, the same pixels as all kept', async () => {
    const lcm = withScheduler(dir, { ...EULER_TURBO, _class_name: 'LCMScheduler' });
    const created: string[] = [];
    const counting: FileLoader = {
      load: (file, options) => {
        if (file.endsWith('model.onnx')) created.push(file.split('/')[0]!);
        return lcm.load(file, options);
      },
      has: lcm.has,
    };
    const resident = await loadDiffusion(ort, lcm, 'wasm');
    const stagewise = await loadDiffusion(ort, counting, 'wasm', {}, 'stagewise');
    expect([resident.stages.policy, stagewise.stages.policy]).toEqual(['resident', 'stagewise']);
    expect([resident.stages.live, stagewise.stages.live]).toEqual([5, 0]);
    created.length = 0;
    const timings = {};
    const image = await stagewise.generate({ prompt, seed: 11, steps: 4, timings });
    // Each stage's session is made once per request (the UNet once for its four steps) and released.
    expect(created).toEqual(['text_encoder', 'unet', 'vae_decoder']);
    expect([stagewise.stages.live, stagewise.stages.peakLive]).toEqual([0, 1]);
    expect(Object.keys(timings).sort()).toEqual(['sessions', 'text_encoder', 'unet', 'vae_decoder']);
    const kept = await resident.generate({ prompt, seed: 11, steps: 4 });
    expect(maxAbsDiff(image.rgba, kept.rgba)).toBe(0);
    expect((await stagewise.upscale(image)).width).toBe(128);
    expect(stagewise.stages.live).toBe(0);
  });

  it('several images of one prompt share one text-encoder run (context passed in), with the same pixels', async () => {
    const disk = directoryLoader(dir);
    const created: string[] = [];
    const counting: FileLoader = {
      load: (file, options) => {
        if (file.endsWith('model.onnx')) created.push(file.split('/')[0]!);
        return disk.load(file, options);
      },
      has: disk.has,
    };
    const pipeline = await loadDiffusion(ort, counting, 'wasm', {}, 'stagewise');
    created.length = 0;
    const context = await pipeline.encodePrompt(prompt);
    const first = await pipeline.generate({ prompt, seed: 21, steps: 1, context });
    const second = await pipeline.generate({ prompt, seed: 22, steps: 1, context });
    expect(created).toEqual(['text_encoder', 'unet', 'vae_decoder', 'unet', 'vae_decoder']);
    expect(maxAbsDiff(first.rgba, (await pipeline.generate({ prompt, seed: 21, steps: 1 })).rgba)).toBe(0);
    expect(maxAbsDiff(second.rgba, (await pipeline.generate({ prompt, seed: 22, steps: 1 })).rgba)).toBe(0);
  });
});
