import { describe, expect, it } from 'vitest';
import { formatBytes, quotaError } from '../../../src/common/weights/errors';
import { planEviction } from '../../../src/common/weights/space';

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
