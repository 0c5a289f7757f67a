import * as ortNode from 'onnxruntime-node';
import { describe, expect, it, vi } from 'vitest';
import type { FileLoader } from '../../../../src/protocol/weights';
import { tinyLlama, tinyQwen2 } from '../../../fixtures/llm/spec';
import { generated } from '../../fixtures/generated';

// loadLlm on onnxruntime-node: the session it starts is what the worker would run.
vi.mock('../../../../src/common/backends/ort', async (original) => ({
  ...(await original<typeof import('../../../../src/common/backends/ort')>()),
  loadOrt: async () => ortNode,
  createSession: (_: unknown, request: { graph: Uint8Array; externalData: { path: string; data: Uint8Array }[] }) =>
    ortNode.InferenceSession.create(request.graph, { externalData: request.externalData }),
}));

const { loadLlm } = await import('../../../../src/worker/chat/load');

describe("loadLlm: the decoder computes a prompt run's logits at its last position only", () => {
  for (const [name, options, keeps] of [
    ['an export without num_logits_to_keep (optimum, Olive, onnxruntime-genai)', tinyLlama, false],
    ['an export that has the input', tinyQwen2, true],
  ] as const) {
    it(`${name}: the session takes num_logits_to_keep, and the prompt's logits are the export's last row`, async () => {
      const sink = await generated({ ...options, dtypes: ['fp32'] });
      const loader: FileLoader = {
        has: async (file) => sink.files.has(file),
        load: async (file) => sink.files.get(file) ?? Promise.reject(new Error(`no ${file}`)),
      };
      const exported = await ortNode.InferenceSession.create(sink.files.get('onnx/model.onnx')!, {
        externalData: [...sink.files.keys()]
          .filter((file) => file.startsWith('onnx/model.onnx_data'))
          .map((file) => ({ path: file.slice('onnx/'.length), data: sink.files.get(file)! })),
      });
      expect(exported.inputNames.includes('num_logits_to_keep')).toBe(keeps);
      const llm = await loadLlm(loader, { backend: 'wasm', dtype: 'fp32' });
      expect(llm.decoder.layout.logitsToKeep).toBe(true);
      expect(llm.backend).toBe('wasm');
      const ids = Array.from({ length: 150 }, (_, i) => 3 + ((i * 131) % 1000));
      const ours = (await llm.decoder.prefill(ids))!;
      // The export as it is, the whole prompt in one run, every position's logits (0 where it has the input).
      const out = await exported.run({
        input_ids: new ortNode.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]),
        attention_mask: new ortNode.Tensor('int64', new BigInt64Array(ids.length).fill(1n), [1, ids.length]),
        position_ids: new ortNode.Tensor(
          'int64',
          BigInt64Array.from(ids, (_, i) => BigInt(i)),
          [1, ids.length],
        ),
        ...(keeps ? { num_logits_to_keep: new ortNode.Tensor('int64', new BigInt64Array([0n]), []) } : {}),
        ...Object.fromEntries(
          exported.inputNames
            .filter((n) => n.startsWith('past_'))
            .map((n) => [
              n,
              new ortNode.Tensor('float32', new Float32Array(0), [1, options.numKeyValueHeads, 0, options.headDim]),
            ]),
        ),
      });
      expect(out.logits!.dims).toEqual([1, ids.length, options.vocabSize]);
      const last = (out.logits!.data as Float32Array).slice(-options.vocabSize);
      expect(ours.reduce((max, value, i) => Math.max(max, Math.abs(value - last[i]!)), 0)).toBeLessThan(1e-3);
      await llm.decoder.release();
      await exported.release();
    });
  }
});
