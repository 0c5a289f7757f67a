import { loadOrt, type OrtSession } from '../backends/ort';
import { VAD_FRAME } from '../recorder/vad-frame';
import { exposeEngine } from './expose';

/** Silero VAD v5/v6 at 16 kHz: VAD_FRAME new samples per step, with the previous CONTEXT as context. */
const CONTEXT = 64;

type Tensor = import('onnxruntime-web').Tensor;

let session: Promise<OrtSession> | undefined;
let state: Tensor | undefined;
let context = new Float32Array(CONTEXT);

async function start(modelURL: string): Promise<OrtSession> {
  const ort = await loadOrt(false);
  const response = await fetch(modelURL);
  if (!response.ok) throw new Error(`Could not load the Silero VAD model from ${modelURL}: HTTP ${response.status}.`);
  return ort.InferenceSession.create(new Uint8Array(await response.arrayBuffer()), { executionProviders: ['wasm'] });
}

const api = {
  /** Loads the model once and forgets any previous audio. */
  async reset(modelURL: string): Promise<void> {
    session ??= start(modelURL).catch((error: unknown) => {
      session = undefined;
      throw error;
    });
    await session;
    state = undefined;
    context = new Float32Array(CONTEXT);
  },
  /** Speech probability of each whole 512-sample frame of `samples` (16 kHz), continuing from the previous call. */
  async probabilities(samples: Float32Array): Promise<Float32Array> {
    if (!session) throw new Error('The VAD was not reset with its model first.');
    const model = await session;
    const ort = await loadOrt(false);
    const sr = new ort.Tensor('int64', BigInt64Array.of(16000n), []);
    const out = new Float32Array(Math.floor(samples.length / VAD_FRAME));
    for (let frame = 0; frame < out.length; frame++) {
      const input = new Float32Array(CONTEXT + VAD_FRAME);
      input.set(context);
      input.set(samples.subarray(frame * VAD_FRAME, (frame + 1) * VAD_FRAME), CONTEXT);
      context = input.slice(VAD_FRAME);
      state ??= new ort.Tensor('float32', new Float32Array(2 * 128), [2, 1, 128]);
      const result = await model.run({ input: new ort.Tensor('float32', input, [1, CONTEXT + VAD_FRAME]), state, sr });
      state = result.stateN!;
      out[frame] = (result.output!.data as Float32Array)[0]!;
    }
    return out;
  },
};

export type VadWorkerApi = typeof api;
exposeEngine(api);
