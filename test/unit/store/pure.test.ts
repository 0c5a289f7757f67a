import { describe, expect, it } from 'vitest';
import { modelProgress } from '../../../src/store/aggregate';
import { formatBytes, quotaError } from '../../../src/store/errors';
import { planEviction } from '../../../src/store/eviction';
import { announcedSize, parseContentRange } from '../../../src/store/http';
import { RateMeter, throttle, transferProgress } from '../../../src/store/progress';

describe('http', () => {
  it('parses Content-Range', () => {
    expect(parseContentRange('bytes 100-199/1000')).toEqual({ start: 100, end: 199, total: 1000 });
    expect(parseContentRange('bytes 0-9/*')).toEqual({ start: 0, end: 9, total: undefined });
    expect(parseContentRange(null)).toBeUndefined();
    expect(parseContentRange('items 1-2/3')).toBeUndefined();
  });

  it('reads the announced size from a 200 or a 206', () => {
    expect(announcedSize(200, new Headers({ 'content-length': '42' }))).toBe(42);
    expect(announcedSize(200, new Headers({ 'content-length': '42', 'content-encoding': 'gzip' }))).toBeUndefined();
    expect(announcedSize(206, new Headers({ 'content-range': 'bytes 10-41/42', 'content-length': '32' }))).toBe(42);
  });
});

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

describe('eviction', () => {
  const models = [
    { id: 'new', bytes: 300, lastUsed: 30 },
    { id: 'old', bytes: 100, lastUsed: 10 },
    { id: 'mid', bytes: 200, lastUsed: 20 },
  ];

  it('evicts least recently used first, only as much as needed', () => {
    expect(planEviction(models, 250, 100)).toMatchObject({
      fits: true,
      evict: [{ id: 'old' }, { id: 'mid' }].map((m) => expect.objectContaining(m)),
    });
    expect(planEviction(models, 50, 100)).toEqual({ evict: [], fits: true });
    expect(planEviction(models, 1000, 0).fits).toBe(false);
  });

  it('says how much is needed and what could be deleted', () => {
    const error = quotaError(
      'model.onnx',
      'https://h/model.onnx',
      3 * 1024 * 1024,
      1024,
      [{ id: 'chat-v2', bytes: 5 * 1024 * 1024 }],
      'quota',
    );
    expect(error.code).toBe('quota_exceeded');
    expect(error.message).toMatch(/model\.onnx from https:\/\/h\/model\.onnx: it needs 3\.0 MB but 1\.0 KB is free/);
    expect(error.message).toContain('chat-v2 (5.0 MB)');
    expect(error.message).toContain('ai.models.delete');
    expect([formatBytes(3 * 1024 ** 3), formatBytes(1536), formatBytes(12)]).toEqual(['3.00 GB', '1.5 KB', '12 bytes']);
  });
});
