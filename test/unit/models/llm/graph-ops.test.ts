import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { graphOperators, takesChunks } from '../../../../src/worker/chat/graph-ops';
import { onnx } from '../../../fixtures/llm/onnx-builder';
import { tinyLlamaGqa, tinyLlamaMha, tinyQwen2 } from '../../../fixtures/llm/spec';
import { SHARED_DIR } from '../../../support/shared';
import { decodeModel, generated } from '../../fixtures/generated';

const upstream = () => readFileSync(`${SHARED_DIR}fixtures/tiny-random-llama-fp16-genai/model.onnx`);
const q4 = { ...tinyQwen2, dtypes: ['fp32' as const, 'q4' as const] };

describe('graphOperators', () => {
  it('lists the upstream export’s operators as onnx-proto decodes them', () => {
    const model = onnx.ModelProto.decode(upstream());
    const expected = new Set(model.graph!.node!.map((node) => `${node.domain ?? ''}:${node.opType}`));
    expect(graphOperators(upstream())).toEqual(expected);
    expect(expected).toContain('com.microsoft:MultiHeadAttention');
  });

  it('reads past inline weights, and into graphs nested in attributes', async () => {
    const q4Model = (await generated(q4)).files.get('onnx/model_q4.onnx')!;
    const decoded = decodeModel(await generated(q4), 'model_q4.onnx');
    expect(graphOperators(q4Model)).toEqual(
      new Set(decoded.graph!.node!.map((node) => `${node.domain ?? ''}:${node.opType}`)),
    );
    const inner = { node: [{ opType: 'MultiHeadAttention', domain: 'com.microsoft', input: ['x'], output: ['y'] }] };
    const nested = onnx.ModelProto.encode({
      graph: {
        node: [
          {
            opType: 'If',
            domain: 'ai.onnx',
            input: ['c'],
            output: ['y'],
            attribute: [{ name: 'then_branch', type: onnx.AttributeProto.AttributeType.GRAPH, g: inner }],
          },
        ],
        initializer: [{ name: 'w', dims: [4], dataType: 1, rawData: new Uint8Array(16) }],
      },
    }).finish();
    expect(graphOperators(nested)).toEqual(new Set([':If', 'com.microsoft:MultiHeadAttention']));
  });
});

describe('takesChunks: whether a prompt can run in chunks over the cache', () => {
  it('no for fused attention behind an export-made mask (the upstream export, the MultiHeadAttention fixture)', async () => {
    expect(takesChunks(graphOperators(upstream()))).toBe(false);
    const mha = (await generated(tinyLlamaMha)).files.get('onnx/model.onnx')!;
    expect(takesChunks(graphOperators(mha))).toBe(false);
    expect(takesChunks(new Set(['com.microsoft:Attention']))).toBe(false);
  });

  it('yes for standard ops (quantised ones too) and GroupQueryAttention', async () => {
    expect(takesChunks(graphOperators((await generated(q4)).files.get('onnx/model_q4.onnx')!))).toBe(true);
    const gqa = (await generated(tinyLlamaGqa)).files.get('onnx/model.onnx')!;
    expect(graphOperators(gqa)).toContain('com.microsoft:GroupQueryAttention');
    expect(takesChunks(graphOperators(gqa))).toBe(true);
  });
});
