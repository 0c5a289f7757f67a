import { basename, dirname } from 'node:path';
import { env, pipeline, type FeatureExtractionPipeline } from '@huggingface/transformers';
import * as ortNode from 'onnxruntime-node';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Ort } from '../../../../src/common/backends/ort';
import { loadEncoder, type LoadedEncoder } from '../../../../src/worker/embeddings/load';
import { ensureEncoderFixture, type EncoderFixtureLocation } from '../../../fixtures/encoder/fixture-dir';
import { tinyBert, tinyXlmr, type EncoderFixtureOptions } from '../../../fixtures/encoder/spec';
import { directoryLoader, maxAbsDiff } from './support';

const ort = ortNode as unknown as Ort;
const long = 'The quick brown fox jumps over the lazy dog. '.repeat(12);
const texts = [
  'Hello world, how are you today?',
  'नमस्ते, आप कैसे हैं? मुझे चाय पसंद है।',
  'எனக்கு காபி பிடிக்கும்.',
  'tea',
  long,
  'मेरा नाम Asha है and I live in চট্টগ্রাম near சென்னை. 👋',
];

/** The same inputs one at a time, no padding, pooled by a plain loop over the raw graph output. */
async function plainLoop(dir: string, ids: number[][], hasTokenTypes: boolean): Promise<Float32Array[]> {
  const session = await ortNode.InferenceSession.create(`${dir}/onnx/model.onnx`);
  const out: Float32Array[] = [];
  for (const row of ids) {
    const tensor = (values: number[]) =>
      new ortNode.Tensor('int64', BigInt64Array.from(values, BigInt), [1, row.length]);
    const feeds: Record<string, ortNode.Tensor> = { input_ids: tensor(row), attention_mask: tensor(row.map(() => 1)) };
    if (hasTokenTypes) feeds.token_type_ids = tensor(row.map(() => 0));
    const hidden = (await session.run(feeds)).last_hidden_state!;
    const [, seq, dim] = hidden.dims as number[];
    const data = hidden.data as Float32Array;
    const mean = new Float32Array(dim!);
    for (let s = 0; s < seq!; s++) for (let d = 0; d < dim!; d++) mean[d]! += data[s * dim! + d]! / seq!;
    const norm = Math.hypot(...mean);
    out.push(mean.map((v) => v / norm));
  }
  await session.release();
  return out;
}

for (const [name, options] of [
  ['tiny-bert', tinyBert],
  ['tiny-xlmr', tinyXlmr],
] as [string, EncoderFixtureOptions][]) {
  describe(`encoder runtime on ${name}`, () => {
    let fixture: EncoderFixtureLocation;
    let loaded: LoadedEncoder;
    let reference: FeatureExtractionPipeline;

    beforeAll(async () => {
      fixture = await ensureEncoderFixture(name, options);
      loaded = await loadEncoder(directoryLoader(fixture.dir), {
        backend: 'wasm',
        ort,
        limits: { maxBatch: 4, maxTokens: 4096, runCost: 8 },
      });
      env.localModelPath = `${dirname(fixture.dir)}/`;
      env.allowRemoteModels = false;
      reference = (await pipeline('feature-extraction', basename(fixture.dir), {
        dtype: 'fp32',
      })) as FeatureExtractionPipeline;
    });

    it('reads pooling, normalisation, length and prompts from the export', () => {
      expect(loaded.config).toMatchObject({ pooling: 'mean', normalize: true, maxLength: options.maxLength });
      expect(loaded.config.prefixes).toEqual(options.prompts ?? { query: '', passage: '' });
      expect(loaded.dimensions).toBe(options.hiddenSize);
    });

    it('tokenizes as transformers.js does; truncation keeps the closing special token as Python tokenizers do', async () => {
      for (const text of texts) {
        const expected = reference.tokenizer(text, { truncation: true }).input_ids.tolist()[0].map(Number);
        const ids = loaded.tokenizer.encode(text).ids;
        if (text === long) {
          // transformers.js cuts after adding specials and loses [SEP] / </s>; we cut the text's tokens.
          expect(ids.slice(0, -1)).toEqual(expected.slice(0, -1));
          expect(ids.at(-1)).toBe(loaded.tokenizer.encode('').ids.at(-1));
        } else expect(ids).toEqual(expected);
      }
      expect(loaded.tokenizer.encode(long)).toMatchObject({ truncated: true });
      expect(loaded.tokenizer.encode(long).ids).toHaveLength(options.maxLength);
    });

    it('equals transformers.js feature-extraction (mean, normalize) within 1e-4, batched by length', async () => {
      const ids = texts.map((text) => loaded.tokenizer.encode(text).ids);
      const result = await loaded.encoder.embed(ids);
      const short = texts.filter((text) => text !== long);
      const expected = (await reference(short, { pooling: 'mean', normalize: true })).tolist() as number[][];
      short.forEach((text, i) => {
        const vector = result.vectors[texts.indexOf(text)]!;
        expect(maxAbsDiff(vector, expected[i]!)).toBeLessThan(1e-4);
        expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
      });
      expect(result.tokens).toBe(ids.reduce((sum, row) => sum + row.length, 0));
    });

    it('equals a plain one-at-a-time loop without padding', async () => {
      const ids = texts.map((text) => loaded.tokenizer.encode(text).ids);
      const result = await loaded.encoder.embed(ids);
      const plain = await plainLoop(fixture.dir, ids, options.architecture === 'bert');
      result.vectors.forEach((vector, i) => expect(maxAbsDiff(vector, plain[i]!)).toBeLessThan(1e-4));
    });

    it('reports progress between batches, not after the last (one text: no message before its answer)', async () => {
      let reports = 0;
      const one = await loaded.encoder.embed([loaded.tokenizer.encode(texts[0]!).ids], undefined, () => reports++);
      expect(one.vectors).toHaveLength(1);
      expect(reports).toBe(0);
      // maxBatch 4: nine texts run in at least three batches, each but the last reported.
      const nine = Array.from({ length: 9 }, (_, i) => loaded.tokenizer.encode(`${texts[0]} ${i}`).ids);
      await loaded.encoder.embed(nine, undefined, () => reports++);
      expect(reports).toBeGreaterThanOrEqual(2);
    });

    it('CLS pooling by override equals transformers.js cls', async () => {
      const cls = await loadEncoder(directoryLoader(fixture.dir), {
        backend: 'wasm',
        ort,
        override: { pooling: 'cls' },
      });
      const short = texts.filter((text) => text !== long);
      const result = await cls.encoder.embed(short.map((text) => cls.tokenizer.encode(text).ids));
      const expected = (await reference(short, { pooling: 'cls', normalize: true })).tolist() as number[][];
      result.vectors.forEach((vector, i) => expect(maxAbsDiff(vector, expected[i]!)).toBeLessThan(1e-4));
    });
  });
}
