import { describe, expect, it } from 'vitest';
import { base64 } from '../../../src/api/images/response';

const bytes = Uint8Array.from({ length: 100_003 }, (_, i) => (i * 7919 + (i >> 5)) & 255);

describe('images base64', () => {
  it('the chunked fallback gives Buffer’s base64 past one 32 KiB chunk', () => {
    expect(base64(bytes)).toBe(Buffer.from(bytes).toString('base64'));
    expect(base64(new Uint8Array(0))).toBe('');
  });

  it('uses the engine’s Uint8Array.prototype.toBase64 where there is one', () => {
    const proto = Uint8Array.prototype as Uint8Array & { toBase64?: () => string };
    const had = Object.getOwnPropertyDescriptor(proto, 'toBase64');
    let called = 0;
    Object.defineProperty(proto, 'toBase64', {
      configurable: true,
      value(this: Uint8Array) {
        called++;
        return Buffer.from(this.buffer, this.byteOffset, this.byteLength).toString('base64');
      },
    });
    try {
      expect(base64(bytes.subarray(5, 40_000))).toBe(Buffer.from(bytes.subarray(5, 40_000)).toString('base64'));
      expect(called).toBe(1);
    } finally {
      if (had) Object.defineProperty(proto, 'toBase64', had);
      else delete proto.toBase64;
    }
  });
});
