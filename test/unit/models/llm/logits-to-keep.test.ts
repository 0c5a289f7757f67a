import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import type { Ort, OrtSession } from '../../../../src/common/backends/ort';
import type { LlmConfig } from '../../../../src/worker/chat/config';
import { KvDecoder, layoutOf } from '../../../../src/worker/chat/decoder';
import { graphOperators } from '../../../../src/worker/chat/graph-ops';
import { lengthsAsInputs } from '../../../../src/worker/chat/lengths-as-inputs';
import { LOGITS_TO_KEEP, logitsToKeep } from '../../../../src/worker/chat/logits-to-keep';
import { DataType, onnx, valueInfo } from '../../../fixtures/llm/onnx-builder';
import {
  tinyLlama,
  tinyLlamaGqa,
  tinyQwen2,
  type DecoderFixtureOptions,
  type FixtureDtype,
} from '../../../fixtures/llm/spec';
import { SHARED_DIR } from '../../../support/shared';
import { generated } from '../../fixtures/generated';

const UPSTREAM = `${SHARED_DIR}fixtures/tiny-random-llama-fp16-genai/`;
const FILES: Record<FixtureDtype, string> = {
  fp32: 'model.onnx',
  fp16: 'model_fp16.onnx',
  q4: 'model_q4.onnx',
  q8: 'model_quantized.onnx',
};

interface Graph {
  bytes: Uint8Array;
  externalData?: { path: string; data: Uint8Array }[];
}

async function session(graph: Graph): Promise<OrtSession> {
  return (await ort.InferenceSession.create(graph.bytes, { externalData: graph.externalData })) as OrtSession;
}

/** The last position's logits after a prompt, through Vaani's decoder (chunks of 128 where the graph takes them). */
async function lastLogits(graph: Graph, prompt: number[]): Promise<Float32Array> {
  const s = await session(graph);
  const decoder = new KvDecoder(ort as unknown as Ort, s, layoutOf(s, {} as LlmConfig, graphOperators(graph.bytes)));
  const logits = (await decoder.prefill(prompt))!;
  const next = await decoder.step([7]);
  await s.release();
  return Float32Array.from([...logits, ...next]);
}

const worst = (a: Float32Array, b: Float32Array) =>
  a.reduce((max, value, i) => Math.max(max, Math.abs(value - b[i]!)), 0);
const argmax = (row: Float32Array) => row.reduce((best, value, i) => (value > row[best]! ? i : best), 0);

const inline = (options: DecoderFixtureOptions, dtype: FixtureDtype, keep = false) =>
  generated({ ...options, dtypes: [dtype], numLogitsToKeep: keep, inlineWeightBytes: 2 ** 30 });

/** Each fixture head as its exporter writes it, with no `num_logits_to_keep`. */
const heads: [string, DecoderFixtureOptions, FixtureDtype][] = [
  ['an untied MatMul head (fp32)', tinyLlama, 'fp32'],
  ['an untied MatMul head (fp16 weights, cache and logits)', tinyLlama, 'fp16'],
  ['an untied MatMulNBits head (q4)', tinyLlama, 'q4'],
  ['a tied Gemm head behind a Reshape (fp32)', tinyQwen2, 'fp32'],
  ['a tied head on the uint8 embedding: DynamicQuantizeLinear + MatMulInteger behind a Reshape (q8)', tinyQwen2, 'q8'],
];

describe('num_logits_to_keep added on the wire to an export that computes every position', () => {
  const prompt = Array.from({ length: 300 }, (_, i) => 3 + ((i * 131) % 1000));

  for (const [name, options, dtype] of heads) {
    it(`${name}: the last position only, the same logits as the generator's own num_logits_to_keep graph, the whole run at 0`, async () => {
      const file = `onnx/${FILES[dtype]}`;
      const bytes = (await inline(options, dtype)).files.get(file)!;
      const rewritten = logitsToKeep(bytes)!;
      expect(rewritten).toBeDefined();
      // An independent implementation of the same slice: the fixture generator's num_logits_to_keep graph.
      const native = (await inline(options, dtype, true)).files.get(file)!;
      expect(logitsToKeep(native)).toBeUndefined();
      expect(logitsToKeep(rewritten)).toBeUndefined();
      const [ours, theirs, original] = (await Promise.all(
        [rewritten, native, bytes].map((graph) => lastLogits({ bytes: graph }, prompt)),
      )) as [Float32Array, Float32Array, Float32Array];
      expect(worst(ours, theirs)).toBe(0);
      // Against the export as it was: equal in float arithmetic. q8 quantises the head's input with one
      // scale per run, which now spans the last position alone: closer to the float model, not equal.
      if (dtype === 'q8') {
        const float = await lastLogits(
          { bytes: (await inline(options, 'fp32')).files.get('onnx/model.onnx')! },
          prompt,
        );
        expect(worst(ours, original)).toBeGreaterThan(0);
        expect(worst(ours, float)).toBeLessThan(worst(original, float));
      } else expect(worst(ours, original)).toBeLessThan(dtype === 'fp16' ? 1e-2 : 1e-4);
      expect(argmax(ours.subarray(0, options.vocabSize))).toBe(argmax(original.subarray(0, options.vocabSize)));

      // One run of 5 tokens: logits [1, 1, vocab] with 1, [1, 5, vocab] with 0 (every position, as before).
      const s = await session({ bytes: rewritten });
      expect(s.inputNames).toContain(LOGITS_TO_KEEP);
      const cacheType = dtype === 'fp16' ? 'float16' : 'float32';
      const empty = () =>
        new ort.Tensor(cacheType, cacheType === 'float16' ? new Uint16Array(0) : new Float32Array(0), [
          1,
          options.numKeyValueHeads,
          0,
          options.headDim,
        ]);
      const feeds = (keep: bigint): Record<string, ort.Tensor> => ({
        input_ids: new ort.Tensor('int64', BigInt64Array.from([3n, 4n, 5n, 6n, 7n]), [1, 5]),
        attention_mask: new ort.Tensor('int64', new BigInt64Array(5).fill(1n), [1, 5]),
        position_ids: new ort.Tensor('int64', BigInt64Array.from([0n, 1n, 2n, 3n, 4n]), [1, 5]),
        [LOGITS_TO_KEEP]: new ort.Tensor('int64', new BigInt64Array([keep]), []),
        ...Object.fromEntries(s.inputNames.filter((n) => n.startsWith('past_')).map((n) => [n, empty()])),
      });
      expect((await s.run(feeds(1n))).logits!.dims).toEqual([1, 1, options.vocabSize]);
      const all = (await s.run(feeds(0n))).logits!;
      expect(all.dims).toEqual([1, 5, options.vocabSize]);
      await s.release();
    });
  }

  it("composes with graph capture's rewrite (a GroupQueryAttention export, tied MatMul head)", async () => {
    const bytes = (await inline(tinyLlamaGqa, 'fp32')).files.get('onnx/model.onnx')!;
    const both = lengthsAsInputs(logitsToKeep(bytes)!)!;
    const s = await session({ bytes: both });
    expect(s.inputNames).toEqual(expect.arrayContaining([LOGITS_TO_KEEP, 'seqlens_k', 'total_seq_len']));
    const ids = prompt.slice(0, 20);
    const out = await s.run({
      input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(ids.length).fill(1n), [1, ids.length]),
      seqlens_k: new ort.Tensor('int32', new Int32Array([ids.length - 1]), [1]),
      total_seq_len: new ort.Tensor('int32', new Int32Array([ids.length]), []),
      [LOGITS_TO_KEEP]: new ort.Tensor('int64', new BigInt64Array([1n]), []),
      ...Object.fromEntries(
        s.inputNames
          .filter((n) => n.startsWith('past_'))
          .map((n) => [n, new ort.Tensor('float32', new Float32Array(0), [1, tinyLlamaGqa.numKeyValueHeads, 0, 16])]),
      ),
    });
    expect(out.logits!.dims).toEqual([1, 1, tinyLlamaGqa.vocabSize]);
    const expected = await lastLogits({ bytes }, ids);
    expect(worst(out.logits!.data as Float32Array, expected.subarray(0, tinyLlamaGqa.vocabSize))).toBeLessThan(1e-4);
    await s.release();
  });

  it('the upstream onnxruntime-genai export (fp16, MultiHeadAttention, whole prompt in one run): weights stay in model.onnx.data', async () => {
    const bytes = readFileSync(`${UPSTREAM}model.onnx`);
    const externalData = [{ path: 'model.onnx.data', data: readFileSync(`${UPSTREAM}model.onnx.data`) }];
    const rewritten = logitsToKeep(bytes)!;
    expect(rewritten).toBeDefined();
    const initializers = (model: Uint8Array) =>
      onnx.ModelProto.decode(model)
        .graph!.initializer!.filter((t) => !t.name!.startsWith('vaani_'))
        .map((t) => [t.name, JSON.stringify(t.externalData)]);
    expect(initializers(rewritten)).toEqual(initializers(bytes));
    const ids = Array.from({ length: 40 }, (_, i) => 3 + ((i * 131) % 31000));
    const [ours, original] = (await Promise.all(
      [rewritten, bytes].map((graph) => lastLogits({ bytes: graph, externalData }, ids)),
    )) as [Float32Array, Float32Array];
    expect(worst(ours, original)).toBeLessThan(1e-2);
  });

  it('slices only what reaches logits: another output of the hidden states keeps every position; a node feeding both is left alone', async () => {
    const bytes = (await inline(tinyLlama, 'fp32')).files.get('onnx/model.onnx')!;
    const model = onnx.ModelProto.decode(bytes);
    const hidden = model.graph!.node!.find((node) => node.output!.includes('logits'))!.input![0]!;
    const withOutput = (name: string, node?: ReturnType<typeof onnx.NodeProto.create>) => {
      const copy = onnx.ModelProto.decode(bytes);
      if (node) copy.graph!.node!.push(node);
      copy.graph!.output!.push(valueInfo(name, DataType.float, ['batch_size', 'sequence_length', 64]));
      return onnx.ModelProto.encode(copy).finish();
    };
    const identity = onnx.NodeProto.create({ opType: 'Identity', input: [hidden], output: ['hidden_states'] });
    for (const graph of [withOutput(hidden), withOutput('hidden_states', identity)]) {
      const s = await session({ bytes: logitsToKeep(graph)! });
      const out = await s.run({
        input_ids: new ort.Tensor('int64', BigInt64Array.from([3n, 4n, 5n]), [1, 3]),
        attention_mask: new ort.Tensor('int64', new BigInt64Array(3).fill(1n), [1, 3]),
        position_ids: new ort.Tensor('int64', BigInt64Array.from([0n, 1n, 2n]), [1, 3]),
        [LOGITS_TO_KEEP]: new ort.Tensor('int64', new BigInt64Array([1n]), []),
        ...Object.fromEntries(
          s.inputNames
            .filter((n) => n.startsWith('past_'))
            .map((n) => [n, new ort.Tensor('float32', new Float32Array(0), [1, tinyLlama.numKeyValueHeads, 0, 16])]),
        ),
      });
      expect(out.logits!.dims).toEqual([1, 1, tinyLlama.vocabSize]);
      expect(out[s.outputNames.at(-1)!]!.dims).toEqual([1, 3, 64]);
      await s.release();
    }
    // A node whose output reaches both logits and another output cannot take the slice.
    const both = onnx.ModelProto.decode(bytes);
    const head = both.graph!.node!.find((node) => node.output!.includes('logits'))!;
    head.input![0] = 'shared';
    both.graph!.node!.push(onnx.NodeProto.create({ opType: 'Identity', input: [hidden], output: ['shared'] }));
    both.graph!.output!.push(valueInfo('shared', DataType.float, ['batch_size', 'sequence_length', 64]));
    expect(logitsToKeep(onnx.ModelProto.encode(both).finish())).toBeUndefined();
    // No logits output: nothing to do.
    both.graph!.output = both.graph!.output!.filter((output) => output.name !== 'logits');
    expect(logitsToKeep(onnx.ModelProto.encode(both).finish())).toBeUndefined();
  });
});
