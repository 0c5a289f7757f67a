import { wasmThreads } from '../../src/common/backends/ort';
import { SeededNoise } from '../../src/worker/images/noise';
import { toRgba, type GeneratedImage } from '../../src/worker/images/pipeline';
import { readSchedulerConfig } from '../../src/worker/images/schedule';
import { sampler } from '../../src/worker/images/scheduler';
import { createVaani } from '../../src/index';
import { encodeImage } from '../../src/worker/images/pixels';
import type { BenchEnv, Scenario, ScenarioResult } from '../types';

/** bench/prepare/images.ts writes these (served by the bench server). */
export const MODELS = '/test/.fixtures/diffusion/';

/**
 * The two fixtures: the tiny one (64×64 images, 8×8 latents; the runtime's fixed costs dominate)
 * and the same layout at 512×512 (64×64 latents, BENCH_512_DIMS: a UNet step of tenths of a
 * second on two cores), each with an LCMScheduler copy (`…-lcm`).
 */
export interface Fixture {
  /** Row id prefix. */
  id: string;
  name: string;
  /** Image side in pixels (latents side / 8). */
  side: number;
  rounds: number;
}
export const FIXTURES: Fixture[] = [
  { id: 'images.tiny', name: 'tiny', side: 64, rounds: 15 },
  { id: 'images.512', name: 'bench-512', side: 512, rounds: 7 },
];
/** LCM's marginal step: images at 1 and at this many steps (the route's `steps` extension allows 1–8). */
const MAX_STEPS = 8;
/** Two onnxruntime instances share two cores here: let the last one's threads settle before timing the next. */
const SETTLE_MS = 30;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One timed run: the whole time, and its parts (graphs, encode, …) in ms. */
interface Run {
  ms: number;
  parts: Record<string, number>;
  /** interleave's answer: each round's whole time, in round order. */
  rounds?: number[];
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

type Vaani = ReturnType<typeof createVaani>;

/** A WASM Vaani on one of the fixtures (its own engine: not shared with other contenders). */
export const vaaniOn = (name: string, sessions: 'resident' | 'stagewise' = 'resident') =>
  createVaani({
    backend: 'wasm',
    share: false,
    models: { 'image-v1': { baseURL: `${MODELS}${name}/`, image: { sessions } } },
  });

/**
 * One image through /v1/images/generations (worker, graphs, PNG encoding, base64 and JSON
 * included); `steps` (the route's extension) when given, else the scheduler's own.
 */
export function vaani(ai: Vaani, quality: 'standard' | 'hd', steps?: number): Contender {
  return {
    async run() {
      const start = performance.now();
      const response = await ai.fetch('/v1/images/generations', {
        method: 'POST',
        headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'a Warli village dance', seed: 1, quality, steps }),
      });
      const answered = performance.now();
      const json = await response.json();
      const ms = performance.now() - start;
      if (!response.ok) throw new Error(`vaani: ${json.error.message}`);
      const stages = serverTiming(response.headers.get('server-timing'));
      const graphs = GRAPHS.reduce((sum, stage) => sum + (stages[stage] ?? 0), 0);
      const read = ms - (answered - start);
      // Outside the worker's graphs and encoder: worker round trip, tokenizer, sampler math, base64, JSON;
      // split into the worker's own rest, the page's route and hops, and reading the JSON answer.
      const outside = ms - graphs - (stages.encode ?? 0);
      const inWorker = (stages.worker ?? 0) - graphs - (stages.encode ?? 0);
      return { ms, parts: { ...stages, graphs, outside, inWorker, page: ms - (stages.worker ?? 0) - read, read } };
    },
    dispose: () => {},
  };
}

/**
 * One image through `ai.images.generate`: the route's event stream with a progress event per step,
 * and the PNG handed over in the page as a Blob (no base64); `steps` absent: the scheduler's own.
 */
export function vaaniBlob(ai: Vaani, quality: 'standard' | 'hd', steps?: number): Contender {
  return {
    async run() {
      let events = 0;
      const count = () => events++;
      ai.images.addEventListener('progress', count);
      const start = performance.now();
      let png: Blob;
      try {
        [png] = (await ai.images.generate('a Warli village dance', { seed: 1, steps, quality })).images as [Blob];
      } finally {
        ai.images.removeEventListener('progress', count);
      }
      const ms = performance.now() - start;
      if (steps && events !== steps) throw new Error(`ai.images: ${events} progress events for ${steps} steps`);
      if (png.type !== 'image/png' || png.size < 100) throw new Error(`ai.images: a ${png.type} of ${png.size} bytes`);
      return { ms, parts: {} };
    },
    dispose: () => {},
  };
}

/**
 * The marginal step: the median over rounds of (time of an image at `n` steps − at 1 step) / (n − 1),
 * the two run back to back in each round (paired, so a busy moment of the shared machine falls on both).
 */
const marginal = (one: Run, n: Run, steps: number) =>
  median(n.rounds!.map((ms, round) => (ms - one.rounds![round]!) / (steps - 1)));

/** RGBA bytes → PNG by the route worker's own encoder function (the browser's, a kept canvas per size), here on the page thread. */
const png = (image: GeneratedImage): Promise<Uint8Array> => encodeImage(image, 'png');

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
export async function bare(
  name: string,
  side: number,
  hd: boolean,
): Promise<{ contender(steps: number): Contender; dispose(): Promise<void> }> {
  const latent = [1, 4, side / 8, side / 8];
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
  const contender = (steps: number): Contender => ({
    async run() {
      const start = performance.now();
      const run = sampler(config, steps);
      const noise = new SeededNoise(1);
      const context = (await text.run({ input_ids: new ort.Tensor('int32', ids, [1, 77]) })).last_hidden_state!;
      let latents = run.initial(noise.normal(4 * (side / 8) ** 2));
      for (let i = 0; i < steps; i++) {
        const out = await unet.run({
          sample: new ort.Tensor('float32', run.input(latents, i), latent),
          timestep: new ort.Tensor('int64', BigInt64Array.of(BigInt(run.timesteps[i]!)), [1]),
          encoder_hidden_states: context,
        });
        latents = run.step(latents, out.out_sample!.data as Float32Array, i, noise);
      }
      const scaled = latents.map((x) => x / 0.18215);
      const pixels = (await vae.run({ latent_sample: new ort.Tensor('float32', scaled, latent) })).sample!;
      let image = toRgba(pixels.data as Float32Array, pixels.dims as number[]);
      if (hd) {
        const unit = (pixels.data as Float32Array).map((x) => x / 2 + 0.5);
        const out = await upscaler.run({ pixel_values: new ort.Tensor('float32', unit, [1, 3, side, side]) });
        image = unitRgba(out.reconstruction!.data as Float32Array, side * 2, side * 2);
      }
      const graphs = performance.now() - start;
      await png(image);
      const ms = performance.now() - start;
      return { ms, parts: { graphs, encode: ms - graphs } };
    },
    dispose: () => {},
  });
  return {
    contender,
    async dispose() {
      for (const s of [text, unet, vae, upscaler]) await s.release();
    },
  };
}

/**
 * Interleaved rounds (after one warm-up each), so load on the shared machine falls on all alike;
 * every other round runs in reverse order (as timePaired's alternate), so no contender always
 * follows the same one.
 */
export async function interleave(contenders: Contender[], rounds: number): Promise<Run[]> {
  const runs: Run[][] = contenders.map(() => []);
  for (const contender of contenders) await contender.run();
  for (let round = 0; round < rounds; round++) {
    const order = [...contenders.keys()];
    if (round % 2) order.reverse();
    for (const i of order) {
      await sleep(SETTLE_MS);
      runs[i]!.push(await contenders[i]!.run());
    }
  }
  return runs.map((list) => {
    const keys = Object.keys(list[0]!.parts);
    return {
      ms: median(list.map((run) => run.ms)),
      rounds: list.map((run) => run.ms),
      parts: Object.fromEntries(keys.map((key) => [key, median(list.map((run) => run.parts[key] ?? 0))])),
    };
  });
}

const BARE =
  'bare onnxruntime-web loop over the same graphs on the page, ending in the same PNG encoder function (browser encoder)';

/**
 * Seconds per image on WASM through /v1/images/generations, at each fixture's size (64×64 tiny,
 * 512×512 from 64×64 latents), against a bare onnxruntime-web loop over the same graphs that
 * also ends in a PNG from the same encoder function (the route answers a PNG, so encoding is part
 * of both): Euler one step (SD-Turbo's schedule), LCM four steps and HD (×2 super-resolution),
 * each as whole-image time. Beside each, the graphs alone (the worker's Server-Timing against the
 * loop's own clock), the PNG encoding alone and the route's time outside both. Seconds per LCM
 * step are the marginal step, the same way on both sides: the median over rounds of (time of an
 * image at 8 steps − at 1 step, back to back) / 7 (the route's `steps` extension; the loop's own
 * step count), so the fixed costs of an image (prompt, VAE, encoding, round trips) are not spread
 * over its steps; and the same through `ai.images`, whose progress event per step crosses from
 * the worker to the page (peak memory is images-memory.ts). Random weights: these measure the runtime against a bare
 * loop at a real latent size, not a real model's speed.
 */
const images: Scenario = async (bench: BenchEnv) => {
  const rows: ScenarioResult[] = [];
  for (const fixture of FIXTURES) {
    const { side } = fixture;
    const notes = {
      threads: wasmThreads(),
      cores: navigator.hardwareConcurrency,
      size: `${side}x${side}`,
      backend: 'wasm',
      rounds: fixture.rounds,
    };
    const row = (id: string, metric: string, unit: string, value: number, baseline: ScenarioResult['baseline']) =>
      rows.push({ id, metric, unit, value, baseline, higherIsBetter: false, notes });
    const px = `${side}×${side}`;
    for (const [kind, scheduler, steps, hd, metric] of [
      ['euler-1', '', 1, false, `${px} image, Euler 1 step`],
      ['lcm-4', '-lcm', 4, false, `${px} image, LCM 4 steps`],
      ['hd', '', 1, true, `HD image (${side * 2}×${side * 2}), Euler 1 step + ×2 upscaler`],
    ] as const) {
      const id = `${fixture.id}.${kind}`;
      const name = fixture.name + scheduler;
      bench.log(`${id}: Vaani and the bare loop, interleaved …`);
      const ai = vaaniOn(name);
      const loop = await bare(name, side, hd);
      const quality = hd ? 'hd' : 'standard';
      const contenders = [vaani(ai, quality), loop.contender(steps), vaaniBlob(ai, quality)];
      // LCM: also 1 and MAX_STEPS steps on both sides (and through ai.images' progress path) for the marginal step.
      if (steps > 1)
        contenders.push(
          vaani(ai, quality, 1),
          vaani(ai, quality, MAX_STEPS),
          loop.contender(1),
          loop.contender(MAX_STEPS),
          vaaniBlob(ai, quality, 1),
          vaaniBlob(ai, quality, MAX_STEPS),
        );
      const [v, b, blob, v1, vN, b1, bN, p1, pN] = (await interleave(contenders, fixture.rounds)) as Run[];
      ai.dispose();
      await loop.dispose();
      bench.log(
        `${id}: ${v!.ms.toFixed(2)} ms (${JSON.stringify(v!.parts)}) vs ${b!.ms.toFixed(2)} ms (${JSON.stringify(b!.parts)}); ai.images ${blob!.ms.toFixed(2)} ms`,
      );
      row(`${id}.s-per-image`, `s per ${metric}, PNG answer (whole image)`, 's', v!.ms / 1000, {
        name: BARE,
        value: b!.ms / 1000,
      });
      row(
        `${id}.blob.s-per-image`,
        `s per ${metric} through ai.images.generate (a Blob handed over in the page: no base64, no JSON; the route's event stream with a progress event per step)`,
        's',
        blob!.ms / 1000,
        { name: BARE, value: b!.ms / 1000 },
      );
      if (v1 && vN && b1 && bN && p1 && pN) {
        const [ours, theirs, progress] = [
          marginal(v1, vN, MAX_STEPS),
          marginal(b1, bN, MAX_STEPS),
          marginal(p1, pN, MAX_STEPS),
        ];
        bench.log(
          `${id}: 1 / ${MAX_STEPS} steps: route ${v1.ms.toFixed(2)} / ${vN.ms.toFixed(2)}, bare ${b1.ms.toFixed(2)} / ${bN.ms.toFixed(2)}, ai.images ${p1.ms.toFixed(2)} / ${pN.ms.toFixed(2)} ms`,
        );
        const method = `marginal: median over ${fixture.rounds} rounds of (image time at ${MAX_STEPS} steps − at 1 step, run back to back) / ${MAX_STEPS - 1}, the same method on both sides`;
        row(
          `${id}.s-per-step`,
          `s per LCM step of a ${px} image, ${method}; route with the steps extension`,
          's',
          ours / 1000,
          { name: BARE, value: theirs / 1000 },
        );
        row(
          `${id}.progress.s-per-step`,
          `s per LCM step of a ${px} image through ai.images with a progress event per step, ${method}`,
          's',
          progress / 1000,
          { name: BARE, value: theirs / 1000 },
        );
      }
      row(
        `${id}.graphs.s-per-image`,
        `s per ${metric} in the graphs alone (the worker's Server-Timing)`,
        's',
        v!.parts.graphs! / 1000,
        {
          name: 'the bare loop over the same graphs (its own clock, before encoding)',
          value: b!.parts.graphs! / 1000,
        },
      );
      row(
        `${id}.encode.s-per-image`,
        `s to encode one ${hd ? `${side * 2}×${side * 2}` : px} PNG in the images worker (browser encoder, kept canvas)`,
        's',
        (v!.parts.encode ?? 0) / 1000,
        { name: 'the same encoder function on the page thread', value: b!.parts.encode! / 1000 },
      );
      row(
        `${id}.outside.s-per-image`,
        `s per ${hd ? 'HD ' : ''}${px} image through the route outside the worker's graphs and encoder (worker round trip, tokenizer, sampler math, pixel conversion, base64, JSON)`,
        's',
        v!.parts.outside! / 1000,
        null,
      );
      for (const [part, what] of [
        [
          'inWorker',
          'in the worker outside its graphs and encoder (model lookup, tokenizer, noise, sampler math, feeds)',
        ],
        [
          'page',
          'on the page and between page and worker (routing, body parsing, the two hops, base64 and JSON of the answer)',
        ],
        ['read', "reading the route's JSON answer (response.json())"],
      ] as const)
        row(
          `${id}.outside.${part === 'inWorker' ? 'worker' : part}.s-per-image`,
          `s per ${hd ? 'HD ' : ''}${px} image through the route ${what}`,
          's',
          v!.parts[part]! / 1000,
          null,
        );
    }
  }
  return rows;
};

export default images;
