import { describe, expect, it } from 'vitest';
import { modelProgress, RateMeter, throttle, transferProgress } from '../../../src/common/weights/progress';

describe('progress', () => {
  it('measures rate over a sliding window and derives fraction and ETA', () => {
    const meter = new RateMeter(1000);
    expect(meter.sample(0, 0)).toBe(0);
    expect(meter.sample(500, 500)).toBe(1000);
    expect(meter.sample(1000, 1000)).toBe(1000);
    expect(meter.sample(4000, 2000)).toBeCloseTo(3000);
    expect(transferProgress(250, 1000, 100)).toEqual({ loaded: 250, total: 1000, fraction: 0.25, rate: 100, eta: 7.5 });
    expect(transferProgress(10, undefined, 5)).toEqual({
      loaded: 10,
      total: undefined,
      fraction: undefined,
      rate: 5,
      eta: undefined,
    });
    expect(transferProgress(0, 0, 0).fraction).toBe(1);
  });

  it('throttles and flushes the last value', () => {
    let now = 0;
    const seen: number[] = [];
    const t = throttle(
      (v: number) => seen.push(v),
      100,
      () => now,
    );
    t.push(1);
    now = 50;
    t.push(2);
    now = 60;
    t.push(3);
    now = 200;
    t.push(4);
    now = 210;
    t.push(5);
    t.flush();
    t.flush();
    expect(seen).toEqual([1, 4, 5]);
  });

  it('aggregates files into model progress', () => {
    const file = (name: string, loaded: number, total: number | undefined, rate: number) => ({
      file: name,
      url: name,
      ...transferProgress(loaded, total, rate),
    });
    const all = modelProgress('m', [file('a', 100, 100, 0), file('b', 50, 300, 25)]);
    expect(all).toMatchObject({ model: 'm', loaded: 150, total: 400, fraction: 0.375, rate: 25, eta: 10 });
    expect(modelProgress('m', [file('a', 1, undefined, 1)]).total).toBeUndefined();
  });
});
