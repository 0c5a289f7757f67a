import { wasmThreads } from '../../src/backends/ort';
import { SeededNoise } from '../../src/models/diffusion/noise';
import { readSchedulerConfig } from '../../src/models/diffusion/schedule';
import { sampler } from '../../src/models/diffusion/scheduler';
import { createVaani } from '../../src/index';
import type { BenchEnv, Scenario, ScenarioResult } from '../types';

/** bench/prepare/images.ts writes these (served by the bench server). */
const MODELS = '/test/.fixtures/diffusion/';
const ROUNDS = 5;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(run: () => Promise<unknown>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return median(times);
}

/** One image through /v1/images/generations (worker, PNG encoding, base64 included). */
async function vaaniMs(name: string, quality: 'standard' | 'hd'): Promise<number> {
  const ai = createVaani({ backend: 'wasm', models: { 'image-v1': { baseURL: `${MODELS}${name}/` } } });
  const ms = await timed(async () => {
    const response = await ai.fetch('/v1/images/generations', {
      method: 'POST',
      headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'a Warli village dance', seed: 1, quality }),
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`vaani: ${json.error.message}`);
  });
  ai.dispose();
  return ms;
}

/** The same sessions driven by a bare onnxruntime-web loop on the page (no worker, no encoding). */
async function bareMs(name: string, steps: number, hd: boolean): Promise<number> {
  const ort = await import('onnxruntime-web/wasm');
  ort.env.wasm.numThreads = wasmThreads();
  const base = `${MODELS}${name}/`;
  const bytes = async (file: string) => new Uint8Array(await (await fetch(base + file)).arrayBuffer());
  const session = async (stage: string) =>
    ort.InferenceSession.create(await bytes(`${stage}/model.onnx`), { executionProviders: ['wasm'] });
  type Session = Awaited<ReturnType<typeof session>>;
  const [text, unet, vae, upscaler] = (await Promise.all(
    ['text_encoder', 'unet', 'vae_decoder', 'upscaler'].map(session),
  )) as [Session, Session, Session, Session];
  const config = readSchedulerConfig(
    JSON.parse(new TextDecoder().decode(await bytes('scheduler/scheduler_config.json'))),
  );
  const ids = Int32Array.from({ length: 77 }, (_, i) => (i < 8 ? 300 + i : 547));
  const ms = await timed(async () => {
    const run = sampler(config, steps);
    const noise = new SeededNoise(1);
    const context = (await text.run({ input_ids: new ort.Tensor('int32', ids, [1, 77]) })).last_hidden_state!;
    let latents = run.initial(noise.normal(256));
    for (let i = 0; i < steps; i++) {
      const out = await unet.run({
        sample: new ort.Tensor('float32', run.input(latents, i), [1, 4, 8, 8]),
        timestep: new ort.Tensor('int64', BigInt64Array.of(BigInt(run.timesteps[i]!)), [1]),
        encoder_hidden_states: context,
      });
      latents = run.step(latents, out.out_sample!.data as Float32Array, i, noise);
    }
    const image = (
      await vae.run({
        latent_sample: new ort.Tensor(
          'float32',
          latents.map((x) => x / 0.18215),
          [1, 4, 8, 8],
        ),
      })
    ).sample!;
    if (hd)
      await upscaler!.run({
        pixel_values: new ort.Tensor(
          'float32',
          (image.data as Float32Array).map((x) => x / 2 + 0.5),
          [1, 3, 64, 64],
        ),
      });
  });
  for (const s of [text, unet, vae, upscaler]) await s.release();
  return ms;
}

const BARE = 'bare onnxruntime-web loop over the same sessions (page thread, no PNG encoding)';

/**
 * Seconds per 64×64 image of the tiny diffusers fixture on WASM through /v1/images/generations,
 * against a bare onnxruntime-web loop over the same graphs: Euler one step (SD-Turbo's schedule),
 * LCM four steps (seconds per step = image time / 4, text encoder and VAE included), and HD (×2
 * super-resolution after decoding). Fixture-size figures: they measure the runtime's overhead,
 * not a real model's speed.
 */
const images: Scenario = async (bench: BenchEnv) => {
  const rows: ScenarioResult[] = [];
  const notes = { threads: wasmThreads(), cores: navigator.hardwareConcurrency, size: '64x64', backend: 'wasm' };
  for (const [id, name, steps, hd, metric] of [
    ['images.tiny.euler-1.s-per-image', 'tiny', 1, false, 's per 64×64 image, Euler 1 step'],
    ['images.tiny.lcm-4.s-per-step', 'tiny-lcm', 4, false, 's per step, LCM 4 steps (whole image / 4)'],
    ['images.tiny.hd.s-per-image', 'tiny', 1, true, 's per HD image (128×128), Euler 1 step + ×2 upscaler'],
  ] as const) {
    bench.log(`${id}: Vaani …`);
    const ours = (await vaaniMs(name, hd ? 'hd' : 'standard')) / 1000 / (id.includes('per-step') ? steps : 1);
    bench.log(`${id}: bare loop …`);
    const bare = (await bareMs(name, steps, hd)) / 1000 / (id.includes('per-step') ? steps : 1);
    bench.log(`${id}: ${ours.toFixed(4)} s vs ${bare.toFixed(4)} s`);
    rows.push({
      id,
      metric,
      unit: 's',
      value: ours,
      baseline: { name: BARE, value: bare },
      higherIsBetter: false,
      notes,
    });
  }
  return rows;
};

export default images;
