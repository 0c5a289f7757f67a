import { describe, expect, it } from 'vitest';
import {
  announcedSize,
  checkSha256,
  checkSize,
  checkStart,
  looksLikeOnnx,
  parseContentRange,
} from '../../../src/common/weights/checks';
import { StoreError } from '../../../src/common/weights/errors';

const bytes = (text: string) => new TextEncoder().encode(text);
const URL_ = 'https://host.test/m/resolve/main/';

/** A real ModelProto start: ir_version 8, producer_name "pytorch", producer_version "2.1", opset_import {...}. */
const onnxStart = new Uint8Array([
  0x08,
  0x08,
  0x12,
  0x07,
  ...bytes('pytorch'),
  0x1a,
  0x03,
  ...bytes('2.1'),
  0x3a,
  0x02,
  0x0a,
  0x00,
]);

function rejection(fn: () => void): StoreError {
  try {
    fn();
  } catch (error) {
    return error as StoreError;
  }
  throw new Error('expected a rejection');
}

describe('checkStart', () => {
  it('accepts a real ONNX start, JSON and binary data', () => {
    expect(() => checkStart('onnx/model.onnx', URL_, onnxStart, 'application/octet-stream', 1000)).not.toThrow();
    expect(() => checkStart('config.json', URL_, bytes(' \n{"a":1}'), 'application/json', 9)).not.toThrow();
    expect(() =>
      checkStart('onnx/model.onnx_data', URL_, new Uint8Array([0, 0, 128, 63, 1, 2]), null, 6),
    ).not.toThrow();
  });

  it('rejects an HTML page naming the file and URL', () => {
    const error = rejection(() =>
      checkStart('onnx/model.onnx', `${URL_}onnx/model.onnx`, bytes('<!DOCTYPE html><html>'), 'text/html', undefined),
    );
    expect(error.code).toBe('not_a_file');
    expect(error.message).toContain('onnx/model.onnx');
    expect(error.message).toContain(`${URL_}onnx/model.onnx`);
  });

  it('rejects HTML by content type and by leading markup, XML error pages and LFS pointers', () => {
    expect(rejection(() => checkStart('tokenizer.json', URL_, bytes('{}'), 'text/html; charset=utf-8', 2)).code).toBe(
      'not_a_file',
    );
    expect(rejection(() => checkStart('model.onnx_data', URL_, bytes('\uFEFF  <html><body>'), null, 20)).code).toBe(
      'not_a_file',
    );
    expect(
      rejection(() => checkStart('model.bin', URL_, bytes('<?xml version="1.0"?><Error>'), 'application/xml', 30)).code,
    ).toBe('not_a_file');
    expect(
      rejection(() =>
        checkStart(
          'model.onnx',
          URL_,
          bytes('version https://git-lfs.github.com/spec/v1\noid sha256:ab'),
          'text/plain',
          60,
        ),
      ).message,
    ).toContain('Git LFS pointer');
  });

  it('rejects a .json that is not JSON and an .onnx that is not a ModelProto', () => {
    expect(rejection(() => checkStart('config.json', URL_, bytes('not json'), 'text/plain', 8)).code).toBe(
      'not_a_file',
    );
    expect(rejection(() => checkStart('model.onnx', URL_, bytes('garbage bytes here'), null, 18)).message).toContain(
      'ONNX',
    );
  });
});

describe('looksLikeOnnx', () => {
  it('rejects unknown fields, wrong wire types and lengths past the end', () => {
    expect(looksLikeOnnx(onnxStart, 1000)).toBe(true);
    expect(looksLikeOnnx(new Uint8Array([0x0a, 0x01, 0x00]), 3)).toBe(false);
    expect(looksLikeOnnx(new Uint8Array([0x48, 0x01]), 2)).toBe(false);
    expect(looksLikeOnnx(new Uint8Array([0x08, 0x08, 0x12, 0x7f]), 4)).toBe(false);
  });
});

describe('checkSize and checkSha256', () => {
  it('rejects a wrong size and accepts the right one', () => {
    expect(() => checkSize('a.bin', URL_, 10, 10)).not.toThrow();
    expect(() => checkSize('a.bin', URL_, 10, undefined)).not.toThrow();
    expect(rejection(() => checkSize('a.bin', URL_, 9, 10)).code).toBe('wrong_size');
  });

  it('checks SHA-256 of a blob', async () => {
    const abc = new Blob([bytes('abc')]);
    const digest = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    await expect(checkSha256('a.bin', URL_, abc, digest.toUpperCase())).resolves.toBe(digest);
    await expect(checkSha256('a.bin', URL_, abc, '00'.repeat(32))).rejects.toMatchObject({ code: 'bad_checksum' });
  });
});

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
