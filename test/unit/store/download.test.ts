import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchUncached } from '../../../src/common/weights/download';

const URL_ = 'https://models.test/m/model.onnx';
/** A ModelProto shape: ir_version 8, then one graph field (7, length-delimited) filling the rest. */
const onnx = (size: number) => {
  const varint = (n: number) => {
    const out: number[] = [];
    for (; n >= 0x80; n = Math.floor(n / 0x80)) out.push((n % 0x80) | 0x80);
    return [...out, n];
  };
  let length = size - 3;
  while (3 + varint(length).length + length > size) length--;
  const bytes = new Uint8Array(size).fill(7);
  bytes.set([0x08, 0x08, 0x3a, ...varint(length)]);
  return bytes;
};

/** A streamed response in pieces, with or without a Content-Length. */
function serve(
  body: Uint8Array,
  { length = true, type = 'application/octet-stream', status = 200, announce = body.length } = {},
) {
  const pieces = [body.subarray(0, 300), body.subarray(300, 2000), body.subarray(2000)];
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) if (piece.length) controller.enqueue(piece.slice());
      controller.close();
    },
  });
  const headers: Record<string, string> = { 'content-type': type };
  if (length) headers['content-length'] = String(announce);
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(stream, { status, headers })),
  );
}

describe('fetchUncached', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('returns the whole file, with or without a Content-Length, and reports progress (to 1 when the size is known)', async () => {
    for (const length of [true, false]) {
      const body = onnx(1_500_000);
      serve(body, { length });
      const fractions: (number | undefined)[] = [];
      const bytes = await fetchUncached({
        spec: { name: 'onnx/model.onnx' },
        url: URL_,
        model: 'm',
        onProgress: (p) => fractions.push(p.fraction),
      });
      expect(Buffer.from(bytes).equals(Buffer.from(body))).toBe(true);
      expect(bytes.length).toBe(body.length);
      expect(fractions.at(-1)).toBe(length ? 1 : undefined);
    }
  });

  it('rejects what is not the file, naming the file and URL, and a body cut short as a broken connection', async () => {
    serve(new TextEncoder().encode('<!doctype html><title>Sign in</title>'.padEnd(600)), { type: 'text/html' });
    await expect(fetchUncached({ spec: { name: 'model.onnx' }, url: URL_, model: 'm' })).rejects.toMatchObject({
      code: 'not_a_file',
      file: 'model.onnx',
      url: URL_,
    });
    serve(onnx(4000));
    await expect(
      fetchUncached({ spec: { name: 'model.onnx_data', size: 5000 }, url: URL_, model: 'm' }),
    ).rejects.toMatchObject({ code: 'wrong_size' });
    serve(onnx(4000), { length: false });
    await expect(
      fetchUncached({ spec: { name: 'model.onnx_data', size: 3000 }, url: URL_, model: 'm' }),
    ).rejects.toMatchObject({ code: 'wrong_size' });
    serve(onnx(4000));
    await expect(
      fetchUncached({ spec: { name: 'model.onnx', sha256: '00'.repeat(32) }, url: URL_, model: 'm' }),
    ).rejects.toMatchObject({ code: 'bad_checksum' });
    serve(onnx(4000), { announce: 6000 });
    await expect(fetchUncached({ spec: { name: 'model.onnx' }, url: URL_, model: 'm' })).rejects.toMatchObject({
      code: 'network_error',
      message: expect.stringContaining('2000 bytes early'),
    });
    serve(new Uint8Array(10), { status: 404 });
    await expect(fetchUncached({ spec: { name: 'model.onnx' }, url: URL_, model: 'm' })).rejects.toMatchObject({
      code: 'file_not_found',
    });
  });
});
