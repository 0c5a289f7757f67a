/**
 * The bare engine for the neural voices: onnxruntime-web running a Piper or sherpa-onnx VITS graph on
 * ids made outside the timing, one run per sentence as the runtimes do. What Vaani's speech route
 * adds (text to ids, the worker protocol, WAV) shows as the ratio against this.
 */
import { expose } from 'comlink';
import * as ort from 'onnxruntime-web/wasm';

let session: ort.InferenceSession;

const int64 = (values: number[]) => new ort.Tensor('int64', BigInt64Array.from(values, BigInt), [1, values.length]);
const one = (value: number) => new ort.Tensor('int64', BigInt64Array.of(BigInt(value)), [1]);
const f32 = (value: number) => new ort.Tensor('float32', Float32Array.of(value), [1]);

const api = {
  async load(url: string, threads: number): Promise<void> {
    ort.env.wasm.numThreads = threads;
    const graph = new Uint8Array(await (await fetch(new URL(url, location.href))).arrayBuffer());
    session = await ort.InferenceSession.create(graph, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
  },
  /** Samples made for each sentence's ids, in the layout's own input names and default scales. */
  async speak(layout: 'piper' | 'sherpa', sentences: number[][], speaker = 0): Promise<number> {
    let samples = 0;
    for (const ids of sentences) {
      const feeds: Record<string, ort.Tensor> =
        layout === 'piper'
          ? {
              input: int64(ids),
              input_lengths: one(ids.length),
              scales: new ort.Tensor('float32', Float32Array.of(0.667, 1, 0.8), [3]),
            }
          : {
              x: int64(ids),
              x_length: one(ids.length),
              noise_scale: f32(0.667),
              length_scale: f32(1),
              noise_scale_w: f32(0.8),
              sid: one(speaker),
              emotion_id: one(0),
            };
      const output = await session.run(feeds);
      samples += (output[layout === 'piper' ? 'output' : 'y']!.data as Float32Array).length;
    }
    return samples;
  },
};

export type VitsBare = typeof api;
expose(api);
