/**
 * One stage of the tiny diffusers fixture alone in its own worker: onnxruntime-web creates the
 * stage's session and runs it once on zero inputs of the fixture's shapes, so the page can measure
 * this worker's memory (its WASM heap only grows, so it holds the stage's peak).
 */
import { expose } from 'comlink';
import * as ort from 'onnxruntime-web/wasm';

/** The fixture's input shapes per stage (64×64 images, 8×8×4 latents, 77 tokens of width 16). */
const SHAPES: Record<string, Record<string, number[]>> = {
  text_encoder: { input_ids: [1, 77] },
  unet: { sample: [1, 4, 8, 8], timestep: [1], encoder_hidden_states: [1, 77, 16] },
  vae_decoder: { latent_sample: [1, 4, 8, 8] },
  vae_encoder: { sample: [1, 3, 64, 64] },
  upscaler: { pixel_values: [1, 3, 64, 64] },
};

const zeros = (type: string, dims: number[]): ort.Tensor => {
  const size = dims.reduce((a, b) => a * b, 1);
  if (type === 'int64') return new ort.Tensor('int64', new BigInt64Array(size), dims);
  if (type === 'int32') return new ort.Tensor('int32', new Int32Array(size), dims);
  return new ort.Tensor('float32', new Float32Array(size), dims);
};

const api = {
  async run(base: string, stage: string, threads: number): Promise<void> {
    ort.env.wasm.numThreads = threads;
    const graph = new Uint8Array(await (await fetch(new URL(`${stage}/model.onnx`, base))).arrayBuffer());
    const session = await ort.InferenceSession.create(graph, { executionProviders: ['wasm'] });
    const feeds: Record<string, ort.Tensor> = {};
    for (const meta of session.inputMetadata) {
      const dims = SHAPES[stage]?.[meta.name];
      if (!dims || !meta.isTensor) throw new Error(`${stage}: no fixture shape for input ${meta.name}`);
      feeds[meta.name] = zeros(meta.type, dims);
    }
    await session.run(feeds);
  },
};

export type DiffusionStageApi = typeof api;
expose(api);
