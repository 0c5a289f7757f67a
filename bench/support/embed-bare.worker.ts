/**
 * The bare engine: onnxruntime-web running the bench encoder on ids tokenised outside the timing,
 * padded to the batch's longest, with a plain masked mean + L2 loop. What Vaani's runtime adds
 * (tokenising, bucketing, protocol) shows as the ratio against this. `dtype` picks the graph as
 * transformers.js does: fp32 onnx/model.onnx, q8 onnx/model_quantized.onnx.
 */
import { expose } from 'comlink';
import * as ort from 'onnxruntime-web/wasm';

let session: ort.InferenceSession;

const api = {
  async load(base: string, threads: number, dtype: 'fp32' | 'q8' = 'fp32'): Promise<void> {
    ort.env.wasm.numThreads = threads;
    const file = dtype === 'q8' ? 'onnx/model_quantized.onnx' : 'onnx/model.onnx';
    const graph = new Uint8Array(await (await fetch(new URL(file, new URL(base, location.href)))).arrayBuffer());
    session = await ort.InferenceSession.create(graph, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
  },
  async embed(rows: number[][]): Promise<number> {
    const start = performance.now();
    const batch = rows.length;
    const seq = Math.max(...rows.map((row) => row.length));
    const ids = new BigInt64Array(batch * seq).fill(1n);
    const mask = new BigInt64Array(batch * seq);
    rows.forEach((row, b) => row.forEach((id, s) => ((ids[b * seq + s] = BigInt(id)), (mask[b * seq + s] = 1n))));
    const out = await session.run({
      input_ids: new ort.Tensor('int64', ids, [batch, seq]),
      attention_mask: new ort.Tensor('int64', mask, [batch, seq]),
    });
    const hidden = out.last_hidden_state!.data as Float32Array;
    const dim = hidden.length / batch / seq;
    for (let b = 0; b < batch; b++) {
      const mean = new Float32Array(dim);
      let count = 0;
      for (let s = 0; s < seq; s++) {
        if (!mask[b * seq + s]) continue;
        count++;
        for (let d = 0; d < dim; d++) mean[d]! += hidden[(b * seq + s) * dim + d]!;
      }
      let norm = 0;
      for (let d = 0; d < dim; d++) norm += (mean[d]! / count) ** 2;
      const scale = 1 / (count * Math.sqrt(norm));
      for (let d = 0; d < dim; d++) mean[d]! *= scale;
    }
    return performance.now() - start;
  },
};

export type EmbedBare = typeof api;
expose(api);
