import * as Comlink from 'comlink';
import { wasmThreads } from '../../src/backends/ort';
import { SeededNoise } from '../../src/models/diffusion/noise';
import { toRgba, type GeneratedImage } from '../../src/models/diffusion/pipeline';
import { readSchedulerConfig } from '../../src/models/diffusion/schedule';
import { sampler } from '../../src/models/diffusion/scheduler';
import { createVaani } from '../../src/index';
import type { BenchEnv, Scenario, ScenarioResult } from '../types';
import type { DiffusionStageApi } from '../support/diffusion-stage.worker';

/** bench/prepare/images.ts writes these (served by the bench server). */
const MODELS = '/test/.fixtures/diffusion/';
const ROUNDS = 11;
/** Two onnxruntime instances share two cores here: let the last one's threads settle before timing the next. */
const SETTLE_MS = 30;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One timed run: the whole time, and its parts (graphs, encode, …) in ms. */
interface Run {
  ms: number;
  parts: Record<string, number>;
}

/** A contender: set up once, then runs one image at a time. */
interface Contender {
  run(): Promise<Run>;
  dispose(): Promise<void> | void;
}

/** `Server-Timing: unet;dur=3.1, encode;dur=4.2, …` → { unet: 3.1, encode: 4.2 }. */
const serverTiming = (header: string | null) =>
  Object.fromEntries(
    (header ?? '')
      .split(',')
      .map((entry) => entry.trim().match(/^([\w-]+).*;dur=([\d.]+)/))
      .filter((match): match is RegExpMatchArray => match !== null)
      .map((match) => [match[1]!, Number(match[2])]),
  );

const GRAPHS = ['text_encoder', 'unet', 'vae_decoder', 'upscaler'];

/** One image through /v1/images/generations (worker, graphs, PNG encoding, base64 and JSON included). */
function vaani(name: string, quality: 'standard' | 'hd', sessions: 'resident' | 'stagewise' = 'resident') {
  const ai = createVaani({
    backend: 'wasm',
    models: { 'image-v1': { baseURL: `${MODELS}${name}/`, image: { sessions } } },
  });
  const contender: Contender = {
    async run() {
      const start = performance.now();
      const response = await ai.fetch('/v1/images/generations', {
        method: 'POST',
        headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'a Warli village dance', seed: 1, quality }),
      });
      const json = await response.json();
      const ms = performance.now() - start;
      if (!response.ok) throw new Error(`vaani: ${json.error.message}`);
      const stages = serverTiming(response.headers.get('server-timing'));
      const graphs = GRAPHS.reduce((sum, stage) => sum + (stages[stage] ?? 0), 0);
      // Outside the worker's graphs and encoder: worker round trip, tokenizer, sampler math, base64, JSON.
      return { ms, parts: { ...stages, graphs, outside: ms - graphs - (stages.encode ?? 0) } };
    },
    dispose: () => ai.dispose(),
  };
  return contender;
}

/** RGBA bytes → PNG through the browser's encoder, as the route's worker encodes (here on the page thread). */
async function png(image: GeneratedImage): Promise<Uint8Array> {
  const canvas = new OffscreenCanvas(image.width, image.height);
  canvas
    .getContext('2d')!
    .putImageData(new ImageData(new Uint8ClampedArray(image.rgba), image.width, image.height), 0, 0);
  return new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer());
}

/** [1, 3, H, W] in [0, 1] (the upscaler's output) → RGBA bytes. */
function unitRgba(data: Float32Array, width: number, height: number): GeneratedImage {
  const plane = width * height;
  const rgba = new Uint8ClampedArray(plane * 4).fill(255);
  for (let p = 0; p < plane; p++)
    for (let c = 0; c < 3; c++) rgba[p * 4 + c] = Math.round(Math.min(1, Math.max(0, data[c * plane + p]!)) * 255);
  return { width, height, rgba };
}

/**
 * The same graphs driven by a bare onnxruntime-web loop on the page, ending as the route does in a
 * PNG from the browser's encoder: like with like (no worker, no tokenizer, no HTTP shape).
 */
async function bare(name: string, steps: number, hd: boolean): Promise<Contender> {
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
  return {
    async run() {
      const start = performance.now();
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
      const scaled = latents.map((x) => x / 0.18215);
      const pixels = (await vae.run({ latent_sample: new ort.Tensor('float32', scaled, [1, 4, 8, 8]) })).sample!;
      let image = toRgba(pixels.data as Float32Array, pixels.dims as number[]);
      if (hd) {
        const unit = (pixels.data as Float32Array).map((x) => x / 2 + 0.5);
        const out = await upscaler.run({ pixel_values: new ort.Tensor('float32', unit, [1, 3, 64, 64]) });
        image = unitRgba(out.reconstruction!.data as Float32Array, 128, 128);
      }
      const graphs = performance.now() - start;
      await png(image);
      const ms = performance.now() - start;
      return { ms, parts: { graphs, encode: ms - graphs } };
    },
    async dispose() {
      for (const s of [text, unet, vae, upscaler]) await s.release();
    },
  };
}

/** Alternating rounds (after one warm-up each), so load on the shared machine falls on both alike. */
async function interleave(contenders: Contender[]): Promise<Run[]> {
  const runs: Run[][] = contenders.map(() => []);
  for (const contender of contenders) await contender.run();
  for (let round = 0; round < ROUNDS; round++)
    for (const [i, contender] of contenders.entries()) {
      await sleep(SETTLE_MS);
      runs[i]!.push(await contender.run());
    }
  return runs.map((list) => {
    const keys = Object.keys(list[0]!.parts);
    return {
      ms: median(list.map((run) => run.ms)),
      parts: Object.fromEntries(keys.map((key) => [key, median(list.map((run) => run.parts[key] ?? 0))])),
    };
  });
}

type MemoryApi = {
  measureUserAgentSpecificMemory?(): Promise<{
    breakdown: { bytes: number; attribution: { url: string; scope: string }[] }[];
  }>;
};

/** MiB attributed to the workers whose URL contains `part` (WASM heaps only grow: ≈ their peak). */
async function workerMiB(part: string): Promise<number | undefined> {
  const measure = (performance as MemoryApi).measureUserAgentSpecificMemory;
  if (!measure || !crossOriginIsolated) return undefined;
  (globalThis as { gc?: () => void }).gc?.();
  const result = await measure.call(performance);
  let bytes = 0;
  for (const entry of result.breakdown) {
    const mine = entry.attribution.filter((where) => where.url.includes(part)).length;
    bytes += (entry.bytes * mine) / Math.max(1, entry.attribution.length);
  }
  return bytes / 2 ** 20;
}

/** Each stage alone in a fresh worker: created, run once, measured. */
async function stagePeakMiB(stage: string): Promise<number | undefined> {
  const worker = new Worker(new URL('../support/diffusion-stage.worker.ts', import.meta.url), { type: 'module' });
  try {
    await Comlink.wrap<DiffusionStageApi>(worker).run(
      new URL(`${MODELS}tiny/`, location.href).href,
      stage,
      wasmThreads(),
    );
    return await workerMiB('diffusion-stage');
  } finally {
    worker.terminate();
  }
}

/** The images worker's memory after one HD image (every stage run), sessions kept or stage by stage. */
async function pipelineMiB(sessions: 'resident' | 'stagewise'): Promise<number | undefined> {
  const contender = vaani('tiny', 'hd', sessions);
  try {
    await contender.run();
    return await workerMiB('images.worker');
  } finally {
    await contender.dispose();
  }
}

const BARE = 'bare onnxruntime-web loop over the same graphs on the page, ending in the same browser PNG encoder';

/**
 * Seconds per 64×64 image of the tiny diffusers fixture on WASM through /v1/images/generations,
 * against a bare onnxruntime-web loop over the same graphs that also ends in a PNG from the
 * browser's encoder (the route answers a PNG, so encoding is part of both): Euler one step
 * (SD-Turbo's schedule), LCM four steps (per step = image time / 4, text encoder, VAE and encoding
 * included), and HD (×2 super-resolution). Beside each, the graphs alone (the worker's
 * Server-Timing against the loop's own clock) and the PNG encoding alone. Then peak memory per
 * stage (each graph alone in a fresh worker) and the whole pipeline kept vs stage by stage.
 * Fixture-size figures: they measure the runtime's overhead, not a real model's speed.
 */
const images: Scenario = async (bench: BenchEnv) => {
  const rows: ScenarioResult[] = [];
  const notes = { threads: wasmThreads(), cores: navigator.hardwareConcurrency, size: '64x64', backend: 'wasm' };
  const row = (id: string, metric: string, unit: string, value: number, baseline: ScenarioResult['baseline']) =>
    rows.push({ id, metric, unit, value, baseline, higherIsBetter: false, notes });
  for (const [id, name, steps, hd, metric] of [
    ['images.tiny.euler-1', 'tiny', 1, false, '64×64 image, Euler 1 step'],
    ['images.tiny.lcm-4', 'tiny-lcm', 4, false, 'step, LCM 4 steps (whole image / 4)'],
    ['images.tiny.hd', 'tiny', 1, true, 'HD image (128×128), Euler 1 step + ×2 upscaler'],
  ] as const) {
    bench.log(`${id}: Vaani and the bare loop, interleaved …`);
    const ours = vaani(name, hd ? 'hd' : 'standard');
    const theirs = await bare(name, steps, hd);
    const [v, b] = (await interleave([ours, theirs])) as [Run, Run];
    await ours.dispose();
    await theirs.dispose();
    const per = id.includes('lcm') ? steps * 1000 : 1000;
    bench.log(
      `${id}: ${v.ms.toFixed(2)} ms (${JSON.stringify(v.parts)}) vs ${b.ms.toFixed(2)} ms (${JSON.stringify(b.parts)})`,
    );
    const unit = id.includes('lcm') ? 's-per-step' : 's-per-image';
    row(`${id}.${unit}`, `s per ${metric}, PNG answer`, 's', v.ms / per, { name: BARE, value: b.ms / per });
    row(
      `${id}.graphs.${unit}`,
      `s per ${metric} in the graphs alone (the worker's Server-Timing)`,
      's',
      v.parts.graphs! / per,
      {
        name: 'the bare loop over the same graphs (its own clock, before encoding)',
        value: b.parts.graphs! / per,
      },
    );
    row(
      `${id}.encode.s-per-image`,
      `s to encode one ${hd ? '128×128' : '64×64'} PNG in the images worker (browser encoder)`,
      's',
      (v.parts.encode ?? 0) / 1000,
      {
        name: 'the same encoder on the page thread',
        value: b.parts.encode! / 1000,
      },
    );
    row(
      `${id}.outside.s-per-image`,
      `s per ${hd ? 'HD ' : ''}image through the route outside the worker's graphs and encoder (worker round trip, tokenizer, sampler math, base64, JSON)`,
      's',
      v.parts.outside! / 1000,
      null,
    );
  }
  for (const stage of ['text_encoder', 'unet', 'vae_decoder', 'vae_encoder', 'upscaler']) {
    bench.log(`memory: ${stage} alone …`);
    const mib = await stagePeakMiB(stage);
    if (mib !== undefined)
      row(
        `images.tiny.memory.${stage}`,
        `peak MiB of a worker running ${stage} alone (session + one run; ONNX Runtime's WASM heap included)`,
        'MiB',
        mib,
        null,
      );
  }
  bench.log('memory: whole pipeline, kept vs stage by stage …');
  const resident = await pipelineMiB('resident');
  const stagewise = await pipelineMiB('stagewise');
  if (resident !== undefined && stagewise !== undefined)
    row(
      'images.tiny.memory.stagewise',
      "images worker's MiB after an HD image, sessions made and released stage by stage",
      'MiB',
      stagewise,
      {
        name: 'every session kept (resident)',
        value: resident,
      },
    );
  return rows;
};

export default images;
