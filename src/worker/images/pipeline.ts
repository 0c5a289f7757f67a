import type { Ort } from '../../common/backends/ort';
import { EngineError } from '../../protocol/errors';
import { SeededNoise } from './noise';
import type { SchedulerConfig } from './schedule';
import { sampler, type Sampler } from './scheduler';
import { floatFeed, floats, intFeed } from './tensors';
import { tilesFor, UPSCALE_MEMORY, upscalerBytesPerPixel, upscaleTiled } from './upscale';
import type { StageMeta, Stages, StageTimings } from './stages';

type Tensor = import('onnxruntime-web').Tensor;
import type { PromptTokenizer } from './tokenizer';

export interface EditRequest extends Omit<GenerateRequest, 'steps'> {
  /** The image at the model's size. */
  image: GeneratedImage;
  /** 1 for each pixel to keep as it is (a mask's opaque pixels); absent: the whole image is redone. */
  keep?: Uint8Array;
  /** How far into the noise the image goes, (0, 1]: 1 redraws it, small values stay close. */
  strength: number;
}

/** How HD runs: the upscaler's memory budget for one pass and its estimated bytes per input pixel. */
export interface UpscaleSettings {
  /** Bytes one pass may take (default UPSCALE_MEMORY); an image past it is tiled. */
  memory?: number;
  /** Estimated bytes per input pixel (from the upscaler's config.json). */
  perPixel?: number;
}

export interface GenerateRequest {
  prompt: string;
  seed: number;
  steps: number;
  /** Awaited after each UNet step with the latents so far; an aborted signal stops between steps. */
  onStep?: (step: number, of: number, latents: Float32Array) => void | Promise<void>;
  signal?: AbortSignal;
  /** Filled with the milliseconds each stage took. */
  timings?: StageTimings;
  /**
   * The prompt's hidden states from `encodePrompt`, when several images share one prompt (the
   * text encoder then runs once for all); the caller disposes it. Absent: encoded here.
   */
  context?: Tensor;
}

/** An RGBA image, row-major, 8 bits per channel. */
export interface GeneratedImage {
  width: number;
  height: number;
  rgba: Uint8ClampedArray;
}

/** Text → latents → pixels over a diffusers-layout export; names and shapes are read from the sessions. */
export class DiffusionPipeline {
  constructor(
    private readonly ort: Ort,
    /** The export's sessions, kept or made stage by stage. */
    readonly stages: Stages,
    private readonly tokenizer: PromptTokenizer,
    private readonly scheduler: SchedulerConfig,
    private readonly vaeScale: number,
    private readonly upscaling: UpscaleSettings = {},
  ) {}

  /** Whether the export has a super-resolution stage (`upscaler/model.onnx`) for HD output. */
  get canUpscale(): boolean {
    return this.stages.has('upscaler');
  }

  /**
   * HD: the image through the upscaler in one pass when its activations fit the memory budget,
   * else in the largest tiles that fit, each with 16 pixels of context.
   */
  tiles(width: number, height: number) {
    const { memory = UPSCALE_MEMORY, perPixel = upscalerBytesPerPixel() } = this.upscaling;
    return tilesFor(width, height, memory, perPixel);
  }

  upscale(image: GeneratedImage, signal?: AbortSignal, timings?: StageTimings): Promise<GeneratedImage> {
    const tiles = this.tiles(image.width, image.height);
    return this.stages.use('upscaler', (session) => upscaleTiled(this.ort, session, image, tiles, signal), timings);
  }

  /** Steps a request runs: one for Euler (SD-Turbo-style one-step models), four for the few-step samplers. */
  get defaultSteps(): number {
    return this.scheduler.kind === 'euler' ? 1 : 4;
  }

  /** The latent shape [1, C, h, w] the UNet declares (its fixed dims; 64×64 latents where symbolic). */
  latentDims(): number[] {
    const unet = this.stages.info('unet');
    const meta = unet.inputMetadata.find((m) => m.name === unet.inputNames[0]);
    const shape = meta && meta.isTensor ? meta.shape : [];
    return [1, 4, 64, 64].map((fallback, i) => (typeof shape[i] === 'number' ? (shape[i] as number) : fallback));
  }

  /**
   * The prompt's CLIP hidden states. Stage by stage the text encoder is released before the UNet
   * runs, so a GPU-resident output is read back first.
   */
  async encodePrompt(prompt: string, timings?: StageTimings): Promise<Tensor> {
    const ids = this.tokenizer.encode(prompt);
    return this.stages.use(
      'text_encoder',
      async (session) => {
        const name = session.inputNames[0]!;
        const out = await session.run({ [name]: intFeed(this.ort, session, name, ids, [1, ids.length]) });
        const hidden = out[session.outputNames[0]!]!;
        if (hidden.location === 'cpu' || this.stages.policy === 'resident') return hidden;
        const data = await hidden.getData(true);
        return new this.ort.Tensor(hidden.type as 'float32', data as Float32Array, hidden.dims);
      },
      timings,
    );
  }

  async generate(request: GenerateRequest): Promise<GeneratedImage> {
    const run = sampler(this.scheduler, request.steps);
    const noise = new SeededNoise(request.seed);
    const latents = run.initial(noise.normal(this.latentDims().reduce((a, b) => a * b)));
    return this.decode(await this.denoise(request, run, noise, latents, 0), request.signal, request.timings);
  }

  /**
   * Image-to-image: the image's latents noised to the step `strength` of the way up the schedule,
   * then denoised; with `keep` (1 per pixel to keep), kept latent cells are reset to the image's
   * at every step and kept pixels are the image's own in the result.
   */
  async edit(request: EditRequest): Promise<GeneratedImage> {
    if (!this.stages.has('vae_encoder'))
      throw new EngineError(
        'unavailable',
        'This image model has no vae_encoder/model.onnx, so it cannot edit images.',
        'model_unavailable',
        'model',
      );
    const total = Math.min(50, Math.ceil(this.defaultSteps / request.strength));
    const run = sampler(this.scheduler, total);
    const from = total - Math.max(1, Math.floor(total * request.strength));
    const dims = this.latentDims();
    const { width, height, rgba } = request.image;
    const encoded = await this.stages.use(
      'vae_encoder',
      async (encoder) => {
        const name = encoder.inputNames[0]!;
        const out = await encoder.run({
          [name]: floatFeed(this.ort, encoder, name, fromRgba(rgba), [1, 3, height, width]),
        });
        return floats(out[encoder.outputNames[0]!]!);
      },
      request.timings,
    );
    const clean = encoded.map((x) => x * this.vaeScale);
    const noise = new SeededNoise(request.seed);
    const fixed = noise.normal(clean.length);
    const keep = request.keep && latentKeep(request.keep, width, dims);
    const blend = keep && {
      apply: (latents: Float32Array, i: number) => {
        const target = run.noised(clean, fixed, i);
        return latents.map((x, j) => (keep[j] ? target[j]! : x));
      },
    };
    const latents = run.noised(clean, fixed, from);
    const denoised = await this.denoise(request, run, noise, latents, from, blend);
    const image = await this.decode(denoised, request.signal, request.timings);
    if (request.keep) request.keep.forEach((kept, p) => kept && image.rgba.set(rgba.subarray(p * 4, p * 4 + 4), p * 4));
    return image;
  }

  private async denoise(
    request: Pick<GenerateRequest, 'prompt' | 'signal' | 'onStep' | 'timings' | 'context'>,
    run: Sampler,
    noise: SeededNoise,
    start: Float32Array,
    from: number,
    blend?: { apply(latents: Float32Array, i: number): Float32Array },
  ): Promise<Float32Array> {
    const [sampleName, timestepName, contextName] = unetInputs(this.stages.info('unet'));
    const dims = this.latentDims();
    const context = request.context ?? (await this.encodePrompt(request.prompt, request.timings));
    const steps = run.timesteps.length - from;
    try {
      return await this.stages.use(
        'unet',
        async (unet) => {
          let latents = start;
          for (let i = from; i < run.timesteps.length; i++) {
            request.signal?.throwIfAborted();
            const out = await unet.run({
              [sampleName]: floatFeed(this.ort, unet, sampleName, run.input(latents, i), dims),
              [timestepName]: intFeed(this.ort, unet, timestepName, [run.timesteps[i]!], [1]),
              [contextName]: context,
            });
            latents = run.step(latents, await floats(out[unet.outputNames[0]!]!), i, noise);
            if (blend && i + 1 < run.timesteps.length) latents = blend.apply(latents, i + 1);
            await request.onStep?.(i + 1 - from, steps, latents);
          }
          return latents;
        },
        request.timings,
      );
    } finally {
      if (!request.context && context.location !== 'cpu') context.dispose();
    }
  }

  /** Latents → pixels through the VAE decoder (also how streaming previews are made). */
  async decode(latents: Float32Array, signal?: AbortSignal, timings?: StageTimings): Promise<GeneratedImage> {
    signal?.throwIfAborted();
    const scaled = latents.map((x) => x / this.vaeScale);
    return this.stages.use(
      'vae_decoder',
      async (vaeDecoder) => {
        const latentName = vaeDecoder.inputNames[0]!;
        const feed = floatFeed(this.ort, vaeDecoder, latentName, scaled, this.latentDims());
        const decoded = await vaeDecoder.run({ [latentName]: feed });
        const pixels = decoded[vaeDecoder.outputNames[0]!]!;
        return toRgba(await floats(pixels), pixels.dims as number[]);
      },
      timings,
    );
  }
}

/** The UNet's sample, timestep and text-context inputs: diffusers' names, else the three in order. */
function unetInputs(unet: StageMeta): [string, string, string] {
  const wanted = ['sample', 'timestep', 'encoder_hidden_states'];
  const names = unet.inputNames;
  if (wanted.every((name) => names.includes(name)) && names.length === 3) return wanted as [string, string, string];
  if (names.length === 3) return names as unknown as [string, string, string];
  throw new Error(`The UNet's inputs (${names.join(', ')}) are not sample, timestep, encoder_hidden_states.`);
}

/** [1, 3, H, W] in [−1, 1] → RGBA bytes, as diffusers' postprocess rounds. */
export function toRgba(data: Float32Array, dims: number[]): GeneratedImage {
  const [, , height, width] = dims as [number, number, number, number];
  const plane = width * height;
  const rgba = new Uint8ClampedArray(plane * 4);
  for (let p = 0; p < plane; p++) {
    for (let c = 0; c < 3; c++)
      rgba[p * 4 + c] = Math.round(Math.min(1, Math.max(0, data[c * plane + p]! / 2 + 0.5)) * 255);
    rgba[p * 4 + 3] = 255;
  }
  return { width, height, rgba };
}

/** RGBA bytes → [1, 3, H, W] in [−1, 1], as diffusers' preprocess scales. */
export function fromRgba(rgba: Uint8ClampedArray): Float32Array {
  const plane = rgba.length / 4;
  const out = new Float32Array(plane * 3);
  for (let p = 0; p < plane; p++) for (let c = 0; c < 3; c++) out[c * plane + p] = (rgba[p * 4 + c]! / 255) * 2 - 1;
  return out;
}

/** Latent cells to keep: those whose 8×8 pixel block is wholly kept. */
function latentKeep(keep: Uint8Array, width: number, dims: number[]): Uint8Array {
  const [, channels, h, w] = dims as [number, number, number, number];
  const cells = new Uint8Array(channels * h * w);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let all = 1;
      for (let dy = 0; dy < 8 && all; dy++)
        for (let dx = 0; dx < 8; dx++) all &= keep[(y * 8 + dy) * width + x * 8 + dx]!;
      for (let c = 0; c < channels; c++) cells[c * h * w + y * w + x] = all;
    }
  return cells;
}
