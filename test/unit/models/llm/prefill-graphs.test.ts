import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as ortNode from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import type { Ort, OrtSession } from '../../../../src/common/backends/ort';
import type { LlmConfig } from '../../../../src/worker/chat/config';
import { KvDecoder, layoutOf, PREFILL_CHUNK as CHUNKS } from '../../../../src/worker/chat/decoder';
import { graphOperators } from '../../../../src/worker/chat/graph-ops';
import { tinyLlamaGqa, tinyLlamaMha } from '../../../fixtures/llm/spec';
import { SHARED_DIR } from '../../../support/shared';
import { generated } from '../../fixtures/generated';

/** On WASM (layoutOf's default backend, as onnxruntime-node runs here). */
const PREFILL_CHUNK = CHUNKS.wasm;

const UPSTREAM = `${SHARED_DIR}fixtures/tiny-random-llama-fp16-genai/`;
const gqa = { ...tinyLlamaGqa, dtypes: ['fp32' as const], inlineWeightBytes: 2 ** 30 };
const mha = { ...tinyLlamaMha, dtypes: ['fp32' as const], inlineWeightBytes: 2 ** 30 };

interface Graph {
  bytes: Uint8Array;
  externalData: { path: string; data: Uint8Array }[];
  vocab: number;
}

const graphs: Record<string, () => Promise<Graph>> = {
  'the upstream export (MultiHeadAttention, fp16)': async () => ({
    bytes: readFileSync(`${UPSTREAM}model.onnx`),
    externalData: [{ path: 'model.onnx.data', data: readFileSync(`${UPSTREAM}model.onnx.data`) }],
    vocab: 32000,
  }),
  'the MultiHeadAttention fixture': async () => ({
    bytes: (await generated(mha)).files.get('onnx/model.onnx')!,
    externalData: [],
    vocab: mha.vocabSize,
  }),
  'the GroupQueryAttention fixture': async () => ({
    bytes: (await generated(gqa)).files.get('onnx/model.onnx')!,
    externalData: [],
    vocab: gqa.vocabSize,
  }),
};

let web: Ort | undefined;
const runtimes: Record<string, () => Promise<Ort>> = {
  'onnxruntime-node': async () => ortNode as unknown as Ort,
  'onnxruntime-web (WASM)': async () => {
    if (web) return web;
    web = (await import('onnxruntime-web/wasm')) as unknown as Ort;
    const dist = dirname(createRequire(import.meta.url).resolve('onnxruntime-web/wasm'));
    web.env.wasm.numThreads = 1;
    web.env.wasm.wasmBinary = readFileSync(join(dist, 'ort-wasm-simd-threaded.wasm'));
    return web;
  },
};

async function decoders(ort: Ort, graph: Graph): Promise<() => KvDecoder> {
  const session = (await ort.InferenceSession.create(graph.bytes, {
    externalData: graph.externalData,
  })) as OrtSession;
  const layout = layoutOf(session, {} as LlmConfig, graphOperators(graph.bytes));
  return () => new KvDecoder(ort, session, layout);
}

const worst = (a: Float32Array, b: Float32Array) =>
  a.reduce((max, value, i) => Math.max(max, Math.abs(value - b[i]!)), 0);

describe('prefill past PREFILL_CHUNK tokens, fed as the graph takes it', () => {
  for (const [runtimeName, runtime] of Object.entries(runtimes)) {
    for (const [name, graph] of Object.entries(graphs)) {
      const chunks = name.includes('GroupQuery');
      it(`${runtimeName}, ${name}: ${chunks ? 'in chunks' : 'in one run'}, the logits of a cache-free run, and the cache continues`, async () => {
        const { vocab, ...rest } = await graph();
        const fresh = await decoders(await runtime(), { vocab, ...rest });
        const length = 2 * PREFILL_CHUNK + 76;
        const prompt = Array.from({ length }, (_, i) => 3 + ((i * 131) % (vocab - 3)));
        const decoder = fresh();
        const sizes: number[] = [];
        const logits = await decoder.prefill(prompt, undefined, (units, run) => {
          sizes.push(units);
          return run();
        });
        expect(sizes).toEqual(chunks ? [PREFILL_CHUNK, PREFILL_CHUNK, 76] : [length]);
        expect(decoder.layout.chunkedPrefill).toBe(chunks);
        expect(decoder.length).toBe(length);
        const next = await decoder.step([7]);
        // Cache-free: the whole sequence in one run from an empty cache.
        const whole = fresh();
        expect(worst(logits!, await whole.step(prompt))).toBeLessThan(1e-3);
        const recomputed = await fresh().step([...prompt, 7]);
        // fp16 (the upstream export) keeps a rounded cache: the step after it moves by up to ~1e-2.
        expect(worst(next, recomputed)).toBeLessThan(3e-2);
      });
    }
  }
});

describe('a prompt that extends the cache prefills only the rest', () => {
  it('onnxruntime-node, a graph that takes no chunks (MultiHeadAttention): nothing kept before a prompt', async () => {
    const fresh = await decoders(ortNode as unknown as Ort, await graphs['the MultiHeadAttention fixture']!());
    const decoder = fresh();
    await decoder.prefill([3, 4, 5, 6, 7, 8]);
    expect(decoder.shared([3, 4, 5, 6, 9, 10])).toBe(4);
    expect(decoder.reuse([3, 4, 5, 6, 9, 10])).toBe(0);
    expect(decoder.length).toBe(0);
  });

  for (const [name, graph] of Object.entries(graphs).filter(([name]) => name.includes('GroupQuery'))) {
    it(`onnxruntime-node, ${name}: a prompt that extends the cache runs only the rest; any other starts fresh`, async () => {
      const { vocab, ...rest } = await graph();
      const fresh = await decoders(ortNode as unknown as Ort, { vocab, ...rest });
      const ids = (length: number, seed: number) =>
        Array.from({ length }, (_, i) => 3 + ((i * 131 + seed) % (vocab - 3)));
      const system = ids(40, 0);
      const first = [...system, ...ids(25, 7)];
      const second = [...system, ...ids(30, 11)];
      const decoder = fresh();
      await decoder.prefill(first);
      await decoder.step([5]);
      // Parts from the cache after 40 tokens: nothing kept, so the same prompt gives the same logits.
      expect(decoder.shared(second)).toBe(40);
      expect(decoder.reuse(second)).toBe(0);
      expect(decoder.length).toBe(0);
      // The system prompt prefilled ahead: the prompt extends it, only its other 30 tokens run.
      await decoder.prefill(system);
      expect(decoder.reuse(second)).toBe(40);
      const sizes: number[] = [];
      const logits = await decoder.prefill(second.slice(40), undefined, (units, run) => (sizes.push(units), run()));
      expect(sizes).toEqual([30]);
      expect(worst(logits!, (await fresh().prefill(second))!)).toBeLessThan(1e-3);
      // The same prompt again: a fresh start (its logits need a run, and a cut cache would move them).
      expect(decoder.reuse(second)).toBe(0);
      expect(decoder.length).toBe(0);
      // An empty prompt (a raw prompt of nothing) keeps nothing.
      await decoder.prefill(second);
      expect(decoder.reuse([])).toBe(0);
      expect(decoder.length).toBe(0);
    });
  }
});
