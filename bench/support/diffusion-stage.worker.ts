/**
 * One stage of a diffusers fixture alone in its own worker: onnxruntime-web creates the stage's
 * session and runs it once on zero inputs of the fixture's shapes, so the page can measure this
 * worker's memory (its WASM heap only grows, so it holds the stage's peak).
 */
import { expose } from 'comlink';
import * as ort from 'onnxruntime-web/wasm';

/**
 * An input's shape at a fixture of `side`×`side` images: the declared fixed dims, with the
 * symbolic ones (the prompt's sequence, the upscaler's height and width) filled in.
 */
const shapeOf = (stage: string, name: string, declared: readonly (number | string)[], side: number): number[] =>
  declared.map((dim) => {
    if (typeof dim === 'number') return dim;
    if (dim === 'sequence_length') return 77;
    if (stage === 'upscaler') return side;
    throw new Error(`${stage}: no fixture size for dim ${dim} of input ${name}`);
  });

const zeros = (type: string, dims: number[]): ort.Tensor => {
  const size = dims.reduce((a, b) => a * b, 1);
  if (type === 'int64') return new ort.Tensor('int64', new BigInt64Array(size), dims);
  if (type === 'int32') return new ort.Tensor('int32', new Int32Array(size), dims);
  return new ort.Tensor('float32', new Float32Array(size), dims);
};

const api = {
  async run(base: string, stage: string, threads: number, side: number): Promise<void> {
    ort.env.wasm.numThreads = threads;
    const graph = new Uint8Array(await (await fetch(new URL(`${stage}/model.onnx`, base))).arrayBuffer());
    const session = await ort.InferenceSession.create(graph, { executionProviders: ['wasm'] });
    const feeds: Record<string, ort.Tensor> = {};
    for (const meta of session.inputMetadata) {
      if (!meta.isTensor) throw new Error(`${stage}: input ${meta.name} is not a tensor`);
      feeds[meta.name] = zeros(meta.type, shapeOf(stage, meta.name, meta.shape, side));
    }
    await session.run(feeds);
  },
};

export type DiffusionStageApi = typeof api;
expose(api);
