import type { Ort, OrtSession } from '../../backends/ort';
import { SeededNoise } from './noise';
import type { SchedulerConfig } from './schedule';
import { sampler } from './scheduler';
import { floatFeed, floats, intFeed } from './tensors';
import type { PromptTokenizer } from './tokenizer';

export interface DiffusionSessions {
  textEncoder: OrtSession;
  unet: OrtSession;
  vaeDecoder: OrtSession;
}

export interface GenerateRequest {
  prompt: string;
  seed: number;
  steps: number;
  /** Called after each UNet step; a rejected promise or aborted signal stops between steps. */
  onStep?: (step: number, of: number) => void;
  signal?: AbortSignal;
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
    private readonly sessions: DiffusionSessions,
    private readonly tokenizer: PromptTokenizer,
    private readonly scheduler: SchedulerConfig,
    private readonly vaeScale: number,
  ) {}

  /** Steps a request runs: one for Euler (SD-Turbo-style one-step models), four for the few-step samplers. */
  get defaultSteps(): number {
    return this.scheduler.kind === 'euler' ? 1 : 4;
  }

  /** The latent shape [1, C, h, w] the UNet declares (its fixed dims; 64×64 latents where symbolic). */
  latentDims(): number[] {
    const meta = this.sessions.unet.inputMetadata.find((m) => m.name === this.sessions.unet.inputNames[0]);
    const shape = meta && meta.isTensor ? meta.shape : [];
    return [1, 4, 64, 64].map((fallback, i) => (typeof shape[i] === 'number' ? (shape[i] as number) : fallback));
  }

  async encodePrompt(prompt: string): Promise<import('onnxruntime-web').Tensor> {
    const session = this.sessions.textEncoder;
    const ids = this.tokenizer.encode(prompt);
    const name = session.inputNames[0]!;
    const out = await session.run({ [name]: intFeed(this.ort, session, name, ids, [1, ids.length]) });
    return out[session.outputNames[0]!]!;
  }

  async generate(request: GenerateRequest): Promise<GeneratedImage> {
    const { unet, vaeDecoder } = this.sessions;
    const [sampleName, timestepName, contextName] = unetInputs(unet);
    const dims = this.latentDims();
    const context = await this.encodePrompt(request.prompt);
    const run = sampler(this.scheduler, request.steps);
    const noise = new SeededNoise(request.seed);
    let latents = run.initial(noise.normal(dims.reduce((a, b) => a * b)));
    for (let i = 0; i < run.timesteps.length; i++) {
      request.signal?.throwIfAborted();
      const out = await unet.run({
        [sampleName]: floatFeed(this.ort, unet, sampleName, run.input(latents, i), dims),
        [timestepName]: intFeed(this.ort, unet, timestepName, [run.timesteps[i]!], [1]),
        [contextName]: context,
      });
      latents = run.step(latents, await floats(out[unet.outputNames[0]!]!), i, noise);
      request.onStep?.(i + 1, run.timesteps.length);
    }
    request.signal?.throwIfAborted();
    const latentName = vaeDecoder.inputNames[0]!;
    const scaled = latents.map((x) => x / this.vaeScale);
    const decoded = await vaeDecoder.run({ [latentName]: floatFeed(this.ort, vaeDecoder, latentName, scaled, dims) });
    const pixels = decoded[vaeDecoder.outputNames[0]!]!;
    return toRgba(await floats(pixels), pixels.dims as number[]);
  }
}

/** The UNet's sample, timestep and text-context inputs: diffusers' names, else the three in order. */
function unetInputs(unet: OrtSession): [string, string, string] {
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
