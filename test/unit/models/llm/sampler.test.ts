import { describe, expect, it } from 'vitest';
import { Sampler, argmax, type SamplingOptions } from '../../../../src/models/llm/sampler';

const base: SamplingOptions = { temperature: 1, top_p: 1, presence_penalty: 0, frequency_penalty: 0 };
const logits = (...values: number[]) => Float32Array.from(values);
const draws = (options: SamplingOptions, values: number[], n: number) => {
  const sampler = new Sampler(options);
  return Array.from({ length: n }, () => sampler.next(logits(...values)));
};

describe('Sampler', () => {
  it('is greedy at temperature 0', () => {
    expect(draws({ ...base, temperature: 0 }, [0.1, 3, 2.9, -1], 5)).toEqual([1, 1, 1, 1, 1]);
  });

  it('repeats itself for the same seed and differs for another', () => {
    const values = [1, 1, 1, 1, 1, 1, 1, 1];
    expect(draws({ ...base, seed: 42 }, values, 50)).toEqual(draws({ ...base, seed: 42 }, values, 50));
    expect(draws({ ...base, seed: 42 }, values, 50)).not.toEqual(draws({ ...base, seed: 43 }, values, 50));
  });

  it('follows the softmax distribution', () => {
    const counts = [0, 0];
    for (const token of draws({ ...base, seed: 1 }, [Math.log(3), 0], 4000)) counts[token]!++;
    expect(counts[0]! / 4000).toBeGreaterThan(0.72);
    expect(counts[0]! / 4000).toBeLessThan(0.78);
  });

  it('keeps only the top-k tokens', () => {
    expect(new Set(draws({ ...base, seed: 3, top_k: 2 }, [5, 4.9, 4.8, 4.7], 300))).toEqual(new Set([0, 1]));
  });

  it('keeps only the nucleus of top_p mass', () => {
    // probabilities 0.5, 0.3, 0.2: top_p 0.7 keeps the first two
    const values = [Math.log(0.5), Math.log(0.3), Math.log(0.2)];
    expect(new Set(draws({ ...base, seed: 5, top_p: 0.7 }, values, 300))).toEqual(new Set([0, 1]));
  });

  it('subtracts presence and frequency penalties for tokens already generated', () => {
    const sampler = new Sampler({ ...base, temperature: 0, presence_penalty: 0.5, frequency_penalty: 0.25 });
    expect(sampler.next(logits(2.4, 1.5, 0))).toBe(0);
    const second = logits(2.4, 1.5, 0);
    expect(sampler.next(second)).toBe(0);
    expect(second[0]).toBeCloseTo(2.4 - 0.5 - 0.25);
    const third = logits(2.4, 1.5, 0);
    expect(sampler.next(third)).toBe(1);
    expect(third[0]).toBeCloseTo(2.4 - 0.5 - 0.5);
    expect(third[1]).toBe(1.5);
  });

  it('argmax returns the first maximum', () => {
    expect(argmax(logits(1, 3, 3))).toBe(1);
  });
});
