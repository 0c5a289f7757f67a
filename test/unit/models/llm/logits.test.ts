import { describe, expect, it } from 'vitest';
import { lastRow } from '../../../../src/worker/chat/logits';

describe('lastRow', () => {
  it('hands a single float32 row back as it is (no copy per decode step)', () => {
    const row = Float32Array.from([0.5, -1, 2]);
    expect(lastRow(row, 3)).toBe(row);
  });

  it('cuts the last of several rows into its own buffer, so the prompt logits can be freed', () => {
    const rows = Float32Array.from([1, 2, 3, 4, 5, 6]);
    const last = lastRow(rows, 3);
    expect(Array.from(last)).toEqual([4, 5, 6]);
    expect(last.buffer).not.toBe(rows.buffer);
    expect(last.byteLength).toBe(last.buffer.byteLength);
  });

  it('decodes float16 logits to float32', () => {
    // 1.0, -2.0 | 0.5, 65504 (max half)
    const bits = Uint16Array.from([0x3c00, 0xc000, 0x3800, 0x7bff]);
    expect(Array.from(lastRow(bits, 2))).toEqual([0.5, 65504]);
  });
});
