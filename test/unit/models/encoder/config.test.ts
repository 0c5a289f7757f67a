import { describe, expect, it } from 'vitest';
import { planBatches } from '../../../../src/worker/embeddings/batches';
import { poolingFolder, readEncoderConfig } from '../../../../src/worker/embeddings/config';
import { pool } from '../../../../src/worker/embeddings/pooling';
import { normalizeL2 } from '../../../../src/common/retrieval/vectors';

describe('readEncoderConfig', () => {
  it('takes pooling from 1_Pooling and normalisation from modules.json', () => {
    const config = readEncoderConfig({
      config: { model_type: 'xlm-roberta', max_position_embeddings: 8194, hidden_size: 1024 },
      tokenizerConfig: { model_max_length: 8192 },
      pooling: { pooling_mode_cls_token: true },
      modules: [{ type: 'sentence_transformers.models.Transformer' }, { type: 'sentence_transformers.models.Pooling' }],
    });
    expect(config).toEqual({
      pooling: 'cls',
      normalize: false,
      maxLength: 8192,
      prefixes: { query: '', passage: '' },
      hiddenSize: 1024,
    });
  });

  it('the shortest of max_seq_length, model_max_length and the position table; e5 prompts; huge tokenizer limits ignored', () => {
    const config = readEncoderConfig({
      config: { model_type: 'bert', max_position_embeddings: 512 },
      tokenizerConfig: { model_max_length: 1e30 },
      sentenceBert: { max_seq_length: 256 },
      sentenceTransformers: { prompts: { query: 'query: ', passage: 'passage: ' } },
      pooling: { pooling_mode_mean_tokens: true },
    });
    expect(config).toMatchObject({ pooling: 'mean', normalize: true, maxLength: 256 });
    expect(config.prefixes).toEqual({ query: 'query: ', passage: 'passage: ' });
  });

  it('decoder embedders without sentence-transformers files pool the last token; the override wins', () => {
    expect(readEncoderConfig({ config: { model_type: 'qwen3' } }).pooling).toBe('last');
    const config = readEncoderConfig(
      { config: { model_type: 'bert' } },
      { pooling: 'cls', normalize: false, maxLength: 64, prefixes: { query: 'q: ' } },
    );
    expect(config).toMatchObject({
      pooling: 'cls',
      normalize: false,
      maxLength: 64,
      prefixes: { query: 'q: ', passage: '' },
    });
  });

  it('finds the pooling folder modules.json names', () => {
    expect(poolingFolder([{ type: 'sentence_transformers.models.Pooling', path: '2_Pool' }])).toBe('2_Pool');
    expect(poolingFolder(undefined)).toBe('1_Pooling');
  });
});

describe('pool', () => {
  // Two rows, three positions, width 2; row 0 right-padded, row 1 left-padded.
  const hidden = Float32Array.from([1, 2, 3, 4, 9, 9, /**/ 9, 9, 5, 6, 7, 8]);
  const mask = [1, 1, 0, 0, 1, 1];
  it('mean over the mask, first token, last attended token', () => {
    expect(pool(hidden, [2, 3, 2], mask, 'mean').map((v) => [...v])).toEqual([
      [2, 3],
      [6, 7],
    ]);
    expect(pool(hidden, [2, 3, 2], mask, 'cls').map((v) => [...v])).toEqual([
      [1, 2],
      [9, 9],
    ]);
    expect(pool(hidden, [2, 3, 2], mask, 'last').map((v) => [...v])).toEqual([
      [3, 4],
      [7, 8],
    ]);
  });
  it('normalizeL2 gives unit length and leaves zeros alone', () => {
    expect([...normalizeL2(Float32Array.from([3, 4]))]).toEqual([0.6000000238418579, 0.800000011920929]);
    expect([...normalizeL2(new Float32Array(2))]).toEqual([0, 0]);
  });
});

describe('planBatches', () => {
  it('buckets by length: less padding than arrival order, every input once', () => {
    const lengths = [3, 120, 4, 118, 5, 119, 6, 121];
    const plan = planBatches(lengths, { maxBatch: 4, maxTokens: 100_000, runCost: 8 });
    expect(plan.batches.flat().sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(plan.tokens).toBe(496);
    const naive = 4 * 120 + 4 * 121;
    expect(plan.paddedTokens).toBe(4 * 6 + 4 * 121);
    expect(plan.paddedTokens).toBeLessThan(naive);
  });
  it('splits a batch only where the padding saved outweighs the cost of another run', () => {
    const lengths = [10, 40, 10, 10, 10];
    expect(planBatches(lengths, { maxBatch: 32, maxTokens: 16_384, runCost: 8 }).batches).toEqual([[0, 2, 3, 4], [1]]);
    expect(planBatches(lengths, { maxBatch: 32, maxTokens: 16_384, runCost: 1000 }).batches).toEqual([[0, 2, 3, 4, 1]]);
  });
  it('finds the cheapest cut: the same cost as trying every cut of the sorted lengths', () => {
    let seed = 3;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed);
    const cheapest = (sorted: number[], limits: { maxBatch: number; runCost: number }): number =>
      sorted.length === 0
        ? 0
        : Math.min(
            ...Array.from({ length: Math.min(limits.maxBatch, sorted.length) }, (_, k) => {
              const rows = k + 1;
              return cheapest(sorted.slice(0, -rows), limits) + rows * sorted.at(-1)! + limits.runCost;
            }),
          );
    for (let trial = 0; trial < 40; trial++) {
      const lengths = Array.from({ length: 1 + (next() % 9) }, () => 1 + (next() % 60));
      const limits = { maxBatch: 1 + (next() % 5), maxTokens: 1e9, runCost: next() % 30 };
      const plan = planBatches(lengths, limits);
      expect(plan.batches.flat().sort((a, b) => a - b)).toEqual(lengths.map((_, i) => i));
      expect(plan.paddedTokens + plan.batches.length * limits.runCost).toBe(
        cheapest(
          [...lengths].sort((a, b) => a - b),
          limits,
        ),
      );
    }
  });
  it('a run stays under maxTokens', () => {
    const plan = planBatches([100, 100, 100, 100], { maxBatch: 32, maxTokens: 250, runCost: 8 });
    expect(plan.batches).toEqual([
      [0, 1],
      [2, 3],
    ]);
  });
});
