import { describe, expect, it } from 'vitest';
import { Sampler, argmax, type SamplingOptions } from '../../../../src/worker/chat/sampler';

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

  it('keeps exactly the tokens a sorted cut keeps, on a shuffled vocabulary (selection, no sort)', () => {
    // 64 distinct weights in shuffled order; the reference sorts, the sampler selects.
    const values = Array.from({ length: 64 }, (_, i) => Math.log(1 + ((i * 37) % 64) / 8) * 2);
    const byWeight = values.map((_, i) => i).sort((a, b) => values[b]! - values[a]!);
    const probabilities = values.map((v) => Math.exp(v - Math.max(...values)));
    const total = probabilities.reduce((sum, p) => sum + p, 0);
    const nucleus = (p: number, from: number[]) => {
      let mass = 0;
      const kept: number[] = [];
      for (const i of from) {
        if (mass >= p * from.reduce((sum, j) => sum + probabilities[j]!, 0)) break;
        kept.push(i);
        mass += probabilities[i]!;
      }
      return new Set(kept);
    };
    expect(new Set(draws({ ...base, seed: 7, top_k: 5 }, values, 3000))).toEqual(new Set(byWeight.slice(0, 5)));
    expect(new Set(draws({ ...base, seed: 8, top_p: 0.5 }, values, 3000))).toEqual(nucleus(0.5, byWeight));
    expect(new Set(draws({ ...base, seed: 9, top_k: 20, top_p: 0.6 }, values, 3000))).toEqual(
      nucleus(0.6, byWeight.slice(0, 20)),
    );
    expect(total).toBeGreaterThan(0);
    // Without a cut every token stays possible, at its softmax frequency.
    const counts = new Map<number, number>();
    for (const token of draws({ ...base, seed: 10 }, values, 20000)) counts.set(token, (counts.get(token) ?? 0) + 1);
    for (const i of [byWeight[0]!, byWeight[63]!])
      expect(Math.abs((counts.get(i) ?? 0) / 20000 - probabilities[i]! / total)).toBeLessThan(0.01);
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
