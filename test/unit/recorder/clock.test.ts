import { describe, expect, it } from 'vitest';
import { SampleClock } from '../../../src/page/recorder/clock';

/** A context whose output clock says context time `contextTime` was heard at performance time `performanceTime`. */
const context = (contextTime: number, performanceTime: number) =>
  ({
    currentTime: contextTime,
    getOutputTimestamp: () => ({ contextTime, performanceTime }),
  }) as unknown as AudioContext;

describe('SampleClock', () => {
  it('times samples by the context clock, whenever the blocks arrive', () => {
    const clock = new SampleClock(16000);
    // Blocks from context time 2.0 s; the mapping is read while the page is 3 s behind (a busy main thread).
    clock.add(1024, 2.0, context(5.0, 10_000));
    clock.add(1024, 2.064, context(5.1, 10_100));
    expect(clock.seconds).toBeCloseTo(0.128, 9);
    // Sample 0 was at context time 2.0 → performance time 10 100 − (5.1 − 2.0) s.
    expect(clock.performanceTime(0)).toBeCloseTo(7000, 6);
    expect(clock.performanceTime(1600)).toBeCloseTo(7100, 6);
  });

  it('a pause is a gap: samples after it are timed from their own block', () => {
    const clock = new SampleClock(16000);
    clock.add(1024, 1.0, context(1.0, 1000));
    clock.add(1024, 1.064, context(1.0, 1000));
    // Paused for 2 s: the next block starts at 3.128 s of context time, sample 2048 of the recording.
    clock.add(1024, 3.128, context(1.0, 1000));
    expect(clock.performanceTime(2047)).toBeCloseTo(1000 + (1.064 + 1023 / 16000 - 1.0) * 1000, 6);
    expect(clock.performanceTime(2048)).toBeCloseTo(1000 + 2128, 6);
    expect(clock.seconds).toBeCloseTo(3072 / 16000, 9);
  });

  it('without an output timestamp, pairs the context time with performance.now() once', () => {
    const clock = new SampleClock(16000);
    const bare = { currentTime: 4, getOutputTimestamp: () => ({ contextTime: 0, performanceTime: 0 }) };
    const now = performance.now();
    clock.add(512, 3.5, bare as unknown as AudioContext);
    expect(clock.performanceTime(0)).toBeGreaterThanOrEqual(now - 500 - 1);
    expect(clock.performanceTime(0)).toBeLessThanOrEqual(performance.now() - 500 + 1);
  });
});
