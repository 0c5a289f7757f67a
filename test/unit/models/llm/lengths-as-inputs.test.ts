import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { LENGTH_INPUTS, lengthsAsInputs } from '../../../../src/worker/chat/lengths-as-inputs';
import { createVaani } from '../../../../src/index';
import { DataType, onnx, valueInfo } from '../../../fixtures/llm/onnx-builder';
import { referenceLogits } from '../../../fixtures/llm/reference-forward';
import { tinyLlamaGqa } from '../../../fixtures/llm/spec';
import { decodeModel, generated } from '../../fixtures/generated';

type Model = ReturnType<typeof onnx.ModelProto.decode>;

const worst = (a: Float32Array, b: Float32Array) =>
  a.reduce((max, value, i) => Math.max(max, Math.abs(value - b[i]!)), 0);

/** A second implementation, on the decoded model (protobufjs): the same rewrite, to compare with the wire edit. */
function reference(graphBytes: Uint8Array): Model {
  const model = onnx.ModelProto.decode(graphBytes);
  const graph = model.graph!;
  const nodes = graph.node ?? [];
  for (const node of nodes.filter((n) => n.opType === 'GroupQueryAttention'))
    [node.input![5], node.input![6]] = LENGTH_INPUTS;
  graph.input!.push(
    valueInfo(LENGTH_INPUTS[0], DataType.int32, ['batch_size']),
    valueInfo(LENGTH_INPUTS[1], DataType.int32, []),
  );
  let kept = nodes;
  for (let count = -1; count !== kept.length;) {
    count = kept.length;
    const used = new Set([...kept.flatMap((n) => n.input ?? []), ...(graph.output ?? []).map((o) => o.name)]);
    kept = kept.filter((n) => (n.output ?? []).some((o) => used.has(o)));
  }
  graph.node = kept;
  return model;
}

const plain = (model: Model) => onnx.ModelProto.toObject(model, { longs: String, bytes: Array });

describe('graph capture: GroupQueryAttention lengths as graph inputs, edited on the wire', () => {
  // A tied head too: onnxruntime-genai's builder writes it as a MatMul, which a captured run binds.
  const options = { ...tinyLlamaGqa, tieWordEmbeddings: true, numLogitsToKeep: false, inlineWeightBytes: 2 ** 30 };
  const prompt = Array.from({ length: 30 }, (_, i) => (i * 131) % 1000);

  it('feeds every GroupQueryAttention node from seqlens_k and total_seq_len, drops the mask arithmetic, and gives the same logits', async () => {
    const sink = await generated(options);
    const original = decodeModel(sink, 'model.onnx').graph!;
    expect(original.node!.find((node) => node.output?.includes('logits'))?.opType).toBe('MatMul');
    const bytes = sink.files.get('onnx/model.onnx')!;
    const rewritten = lengthsAsInputs(bytes)!;
    expect(plain(onnx.ModelProto.decode(rewritten))).toEqual(plain(reference(bytes)));
    const nodes = onnx.ModelProto.decode(rewritten).graph!.node ?? [];
    const attention = nodes.filter((node) => node.opType === 'GroupQueryAttention');
    expect(attention).toHaveLength(options.numHiddenLayers);
    for (const node of attention) expect(node.input?.slice(5, 7)).toEqual([...LENGTH_INPUTS]);
    expect(nodes.some((node) => node.opType === 'ReduceSum')).toBe(false);
    expect(nodes.length).toBeLessThan(original.node!.length);
    // Idempotent: a graph that already takes them is left taking them once.
    expect(lengthsAsInputs(rewritten)).toEqual(rewritten);

    const session = await ort.InferenceSession.create(rewritten);
    expect(session.inputNames.slice(-2)).toEqual([...LENGTH_INPUTS]);
    const expected = referenceLogits(options, [...prompt, 7]);
    const empty = () =>
      new ort.Tensor('float32', new Float32Array(0), [1, options.numKeyValueHeads, 0, options.headDim]);
    let past: Record<string, ort.Tensor> = Object.fromEntries(
      session.inputNames.filter((n) => n.startsWith('past_')).map((n) => [n, empty()]),
    );
    let at = 0;
    const run = async (ids: number[]) => {
      const total = at + ids.length;
      const out = await session.run({
        input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]),
        attention_mask: new ort.Tensor('int64', new BigInt64Array(total).fill(1n), [1, total]),
        seqlens_k: new ort.Tensor('int32', new Int32Array([total - 1]), [1]),
        total_seq_len: new ort.Tensor('int32', new Int32Array([total]), []),
        ...past,
      });
      past = Object.fromEntries(Object.keys(past).map((n) => [n, out[n.replace('past_key_values', 'present')]!]));
      at = total;
      return (out.logits!.data as Float32Array).slice(-options.vocabSize);
    };
    expect(worst(await run(prompt), expected.at(-2)!)).toBeLessThan(1e-3);
    expect(worst(await run([7]), expected.at(-1)!)).toBeLessThan(1e-3);
  });

  it('leaves weights in external data where they are, naming the same files', async () => {
    const sink = await generated({ ...options, inlineWeightBytes: tinyLlamaGqa.inlineWeightBytes });
    const bytes = sink.files.get('onnx/model.onnx')!;
    const rewritten = lengthsAsInputs(bytes)!;
    expect(plain(onnx.ModelProto.decode(rewritten))).toEqual(plain(reference(bytes)));
    const initializers = (model: Uint8Array) =>
      onnx.ModelProto.decode(model).graph!.initializer!.map((t) => [t.name, JSON.stringify(t.externalData)]);
    expect(initializers(rewritten)).toEqual(initializers(bytes));
  });

  it('gives undefined for a graph without GroupQueryAttention', async () => {
    const sink = await generated({ ...tinyLlamaGqa, attention: undefined, inlineWeightBytes: 2 ** 30 });
    expect(lengthsAsInputs(sink.files.get('onnx/model.onnx')!)).toBeUndefined();
  });
});

describe('createVaani({ models: { id: { chat: { graphCapture } } } })', () => {
  it('takes true, false or a whole number of tokens; anything else is a TypeError', () => {
    const vaani = (graphCapture: unknown) =>
      createVaani({
        baseURL: 'http://localhost/v1',
        models: { 'chat-v2': { chat: { graphCapture: graphCapture as never } } },
      });
    for (const graphCapture of [true, false, 16, 4096]) vaani(graphCapture).dispose();
    for (const graphCapture of [0, 15, 1.5, -4, 'yes']) expect(() => vaani(graphCapture)).toThrow(TypeError);
    expect(() => vaani(8)).toThrow(/graphCapture.*16 or more.*not 8/);
  });
});
