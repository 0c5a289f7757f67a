import { describe, expect, it } from 'vitest';
import { base64 } from '../../../src/page/api/http/base64';
import { imagesJson } from '../../../src/page/api/images/_response';

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

  it("writes OpenAI's images JSON as bytes: each image's base64 in place, past one chunk, with 1- and 2-byte tails", () => {
    const images = [bytes, bytes.subarray(0, 1), bytes.subarray(0, 2), new Uint8Array(0)];
    const fields = { created: 1700000000, output_format: 'png' as const, quality: 'hd', size: '128x128' };
    const expected = (format: 'url' | 'b64_json', revised?: string) => ({
      created: 1700000000,
      data: images.map((image) => {
        const b64 = Buffer.from(image).toString('base64');
        const data = format === 'url' ? { url: `data:image/png;base64,${b64}` } : { b64_json: b64 };
        return revised === undefined ? data : { ...data, revised_prompt: revised };
      }),
      output_format: 'png',
      quality: 'hd',
      size: '128x128',
    });
    const read = (json: Uint8Array) => JSON.parse(new TextDecoder().decode(json));
    const revised = 'वारली "dance"\n, madhubani';
    expect(read(imagesJson(images, fields, 'b64_json'))).toEqual(expected('b64_json'));
    expect(read(imagesJson(images, fields, 'url', revised))).toEqual(expected('url', revised));
    expect(read(imagesJson(images, fields, 'b64_json', revised))).toEqual(expected('b64_json', revised));
    const { quality: _none, ...standard } = fields;
    expect(Object.keys(read(imagesJson([bytes], standard, 'b64_json')))).toEqual([
      'created',
      'data',
      'output_format',
      'size',
    ]);
  });
});
