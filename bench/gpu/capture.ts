/* eslint-disable @typescript-eslint/no-explicit-any -- onnxruntime-web's GPU tensors and Dawn's untyped binding */
/**
 * Graph capture: onnxruntime-web's native WebGPU EP records one decode step's dispatches and
 * replays them (`enableGraphCapture`), so a token costs one replay instead of hundreds of kernel
 * launches from the host. It needs every shape fixed and every input and output on the GPU:
 * free dimensions pinned (`freeDimensionOverrides`: one token, a cache of `capacity` positions),
 * a KV cache that `GroupQueryAttention` updates in place (past and present bound to the same
 * buffer: `past_present_share_buffer`), an attention mask of `capacity` entries filled as tokens
 * arrive, and the logits copied out of their GPU buffer. The prompt goes in one token at a time
 * (the captured shape). Only an export with fused GQA can do this.
 */
import type { Ort } from '../../src/common/backends/ort';
// The library's workaround for onnxruntime-web's freed binding handles (see there).
import { pinRegistrations } from '../../src/worker/chat/captured';

export interface CaptureModel {
  graph: Uint8Array;
  externalData: { path: string; data: Uint8Array }[];
  layers: number;
  kvHeads: number;
  headDim: number;
  vocab: number;
}

export interface CaptureRun {
  ttftMs: number;
  stepsMs: number[];
  tokens: number[];
}

export interface CaptureSession {
  /** `beforeStep`: awaited before each decode step (a diagnostic: generate()'s yield). */
  run(prompt: number[], newTokens: number, beforeStep?: () => Promise<void>): Promise<CaptureRun>;
  release(): Promise<void>;
  createMs: number;
}

export async function createCaptureSession(ort: Ort, model: CaptureModel, capacity: number): Promise<CaptureSession> {
  const t0 = performance.now();
  const session = await ort.InferenceSession.create(model.graph, {
    // As an object: onnxruntime-web hands `enableGraphCapture` to the native EP only then (a string name left it off).
    executionProviders: [{ name: 'webgpu' }],
    externalData: model.externalData,
    graphOptimizationLevel: 'all',
    enableGraphCapture: true,
    preferredOutputLocation: 'gpu-buffer',
    freeDimensionOverrides: {
      batch_size: 1,
      sequence_length: 1,
      past_sequence_length: capacity,
      total_sequence_length: capacity,
    },
  } as any);
  const createMs = performance.now() - t0;
  const device: GPUDevice = (ort.env as any).webgpu.device;
  if (!device) throw new Error('onnxruntime-web gave no WebGPU device after the session started');
  const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const buffers: GPUBuffer[] = [];
  const buffer = (bytes: number) => {
    const b = device.createBuffer({ size: Math.max(16, Math.ceil(bytes / 16) * 16), usage });
    buffers.push(b);
    return b;
  };
  const tensor = (b: GPUBuffer, dataType: string, dims: number[]) =>
    (ort.Tensor as any).fromGpuBuffer(b, { dataType, dims });
  const ids = buffer(8);
  const mask = buffer(8 * capacity);
  const seqlens = buffer(4);
  const total = buffer(4);
  const logits = buffer(4 * model.vocab);
  const staging = device.createBuffer({
    size: 4 * model.vocab,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  const feeds: Record<string, any> = {
    input_ids: tensor(ids, 'int64', [1, 1]),
    attention_mask: tensor(mask, 'int64', [1, capacity]),
    seqlens_k: tensor(seqlens, 'int32', [1]),
    total_seq_len: tensor(total, 'int32', []),
  };
  const fetches: Record<string, any> = { logits: tensor(logits, 'float32', [1, 1, model.vocab]) };
  const cacheBytes = 4 * model.kvHeads * capacity * model.headDim;
  const caches: GPUBuffer[] = [];
  for (let i = 0; i < model.layers; i++)
    for (const part of ['key', 'value']) {
      const b = buffer(cacheBytes);
      caches.push(b);
      const t = tensor(b, 'float32', [1, model.kvHeads, capacity, model.headDim]);
      feeds[`past_key_values.${i}.${part}`] = t;
      fetches[`present.${i}.${part}`] = t; // the same buffer: GroupQueryAttention writes the new position in place
    }
  const zeros = new Uint8Array(Math.max(cacheBytes, 8 * capacity));
  device.queue.writeBuffer(total, 0, new Int32Array([capacity]));
  const reset = () => {
    device.queue.writeBuffer(mask, 0, zeros, 0, 8 * capacity);
    for (const b of caches) device.queue.writeBuffer(b, 0, zeros, 0, cacheBytes);
  };
  const one = new BigInt64Array([1n]);
  let pinned = false;
  const step = async (token: number, position: number): Promise<number> => {
    device.queue.writeBuffer(ids, 0, new BigInt64Array([BigInt(token)]));
    device.queue.writeBuffer(mask, 8 * position, one);
    device.queue.writeBuffer(seqlens, 0, new Int32Array([position]));
    const run = session.run(feeds, fetches);
    if (!pinned) await pinRegistrations(buffers, run);
    pinned = true;
    await run;
    const encoder = device.createCommandEncoder();
    encoder.copyBufferToBuffer(logits, 0, staging, 0, 4 * model.vocab);
    device.queue.submit([encoder.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const row = new Float32Array(staging.getMappedRange());
    let best = 0;
    for (let i = 1; i < row.length; i++) if (row[i]! > row[best]!) best = i;
    staging.unmap();
    return best;
  };
  return {
    createMs,
    async run(prompt, newTokens, beforeStep) {
      if (prompt.length + newTokens > capacity)
        throw new Error(`${prompt.length + newTokens} tokens exceed the cache's ${capacity}`);
      reset();
      const t0 = performance.now();
      let token = 0;
      for (let i = 0; i < prompt.length; i++) token = await step(prompt[i]!, i);
      const ttftMs = performance.now() - t0;
      const tokens = [token];
      const stepsMs: number[] = [];
      while (tokens.length < newTokens) {
        const t = performance.now();
        await beforeStep?.();
        token = await step(token, prompt.length + tokens.length - 1);
        stepsMs.push(performance.now() - t);
        tokens.push(token);
      }
      return { ttftMs, stepsMs, tokens };
    },
    async release() {
      await session.release();
      for (const b of buffers) b.destroy();
      staging.destroy();
    },
  };
}
