import { describe, expect, it } from 'vitest';
import { best, median, order, type Timing } from '../../../bench/support/rounds';

const timing = (ttftMs: number, decodeMs: number, stepsMs: number[]): Timing => ({
  ttftMs,
  decodeMs,
  stepsMs,
  promptTokens: 128,
  generated: stepsMs.length + 1,
});

describe('bench rounds', () => {
  it('starts each round one contender later, so each runs first once in three rounds', () => {
    const rounds = [0, 1, 2].map((turn) => order(3, turn));
    expect(rounds).toEqual([
      [0, 1, 2],
      [1, 2, 0],
      [2, 0, 1],
    ]);
    expect(new Set(rounds.map((round) => round[0]))).toEqual(new Set([0, 1, 2]));
  });

  it('takes the median of odd and even counts', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('keeps the steps of the round with the lowest median, the shortest times and every step pooled', () => {
    const disturbed = timing(2700, 1700, [120, 180, 100, 110, 200]);
    const calm = timing(2040, 1300, [77, 64, 70, 150, 75]);
    const merged = best([disturbed, calm]);
    expect(merged.stepsMs).toEqual(calm.stepsMs);
    expect(median(merged.stepsMs)).toBe(75);
    expect(merged.ttftMs).toBe(2040);
    expect(merged.decodeMs).toBe(1300);
    expect(merged.pooledStepsMs).toHaveLength(10);
    expect(median(merged.pooledStepsMs!)).toBe(105);
  });
});
