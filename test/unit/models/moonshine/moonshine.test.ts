import { existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as ortNode from 'onnxruntime-node';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Ort } from '../../../../src/common/backends/ort';
import type { FileLoader } from '../../../../src/protocol/weights';
import { startMoonshine } from '../../../../src/worker/transcription/moonshine/load';
import { EOS, greedy, type Moonshine } from '../../../../src/worker/transcription/moonshine/model';
import { detokenise, readTokens } from '../../../../src/worker/transcription/moonshine/tokens';
import { FIXTURE_PIECES, writeMoonshineFixture } from '../../../fixtures/moonshine/files';
import { reference } from '../../../fixtures/moonshine/reference';

const dirLoader = (dir: string): FileLoader => ({
  load: async (file) => new Uint8Array(await readFile(join(dir, file))),
  has: async (file) => existsSync(join(dir, file)),
});

/** A voiced clip: a few tones whose pitch moves, 16 kHz. */
const clip = (seconds: number, seed: number) =>
  Float32Array.from(
    { length: Math.floor(seconds * 16000) },
    (_, i) => 0.3 * Math.sin((2 * Math.PI * (150 + 40 * Math.sin(i / (1200 + seed * 97))) * i) / 16000 + seed),
  );

describe('tokens.txt as sherpa-onnx reads it', () => {
  const table = readTokens(
    '<unk> 0\n<s> 1\n</s> 2\n<0x00> 3\n<0xE0> 227\n<0xAE> 177\n<0xB4> 183\n▁வணக்கம் 259\nக்கு 260\n▁order 261\n',
  );

  it('a leading ▁ is a space, byte pieces are bytes, text is trimmed, unknown ids skipped', () => {
    expect(table.get(259)).toBe(' வணக்கம்');
    expect(table.get(227)).toBe(0xe0);
    expect(detokenise(table, [259, 260, 261])).toBe('வணக்கம்க்கு order');
    // ழ (U+0BB4) from three byte-fallback pieces.
    expect(detokenise(table, [261, 227, 177, 183])).toBe('orderழ');
    expect(detokenise(table, [999, 261])).toBe('order');
  });

  it('a <0xNN> piece whose id is not NN + 3 stays text', () => {
    expect(readTokens('<0x41> 300\n').get(300)).toBe('<0x41>');
  });

  it('greedy: the highest logit, its log-softmax', () => {
    const { id, logprob } = greedy(Float32Array.of(0, 2, 1));
    expect(id).toBe(1);
    expect(logprob).toBeCloseTo(2 - Math.log(1 + Math.exp(2) + Math.exp(1)), 6);
  });
});

describe('the Moonshine-layout runtime on the generated fixture', () => {
  let model: Moonshine;
  let dir: string;

  beforeAll(async () => {
    dir = writeMoonshineFixture(process.cwd()).dir;
    model = await startMoonshine(ortNode as unknown as Ort, dirLoader(dir), {}, 'cpu');
  });

  it('the graphs have the layout names and ranks sherpa-onnx feeds', () => {
    const { preprocess, encode, uncached, cached } = model.sessions;
    expect(preprocess.inputNames).toEqual(['args_0']);
    expect(preprocess.outputNames).toEqual(['sequential']);
    expect(encode.inputNames).toEqual(['args_0', 'args_1']);
    expect(uncached.inputNames).toEqual(['args_0', 'args_1', 'args_2']);
    expect(uncached.outputNames).toHaveLength(1 + 2 * 4);
    expect(cached.inputNames).toEqual([
      'args_0',
      'args_1',
      'args_2',
      ...Array.from({ length: 8 }, (_, i) => `args_${i + 3}`),
    ]);
  });

  // Whole frames (384 samples): the Python loop's token limit (from the audio) and sherpa-onnx C++'s (from the frames) agree.
  for (const [seconds, seed] of [
    [2.4, 1],
    [4.8, 2],
  ] as const)
    it(`${seconds} s: the same tokens and text as the reference loop`, async () => {
      const samples = clip(seconds, seed);
      const encoded = await model.encode(samples);
      expect(encoded.dims).toEqual([1, Math.floor(samples.length / 384), 16]);
      const { tokens, logprobs } = await model.decode(encoded);
      const expected = await reference(dir, samples);
      expect(tokens).toEqual(expected.ids);
      expect(tokens.length).toBeGreaterThan(2);
      expect(tokens).not.toContain(EOS);
      expect(logprobs.every((p) => p <= 0)).toBe(true);
      const text = detokenise(model.tokens, tokens);
      expect(text).toBe(expected.text);
      expect(FIXTURE_PIECES.some((piece) => text.includes(piece.replace('▁', '')))).toBe(true);
    });

  it('the decoder states matter: fed back out of order, other tokens come out', async () => {
    const samples = clip(4.8, 2);
    const expected = await reference(dir, samples);
    const swapped = Object.create(model.sessions.cached) as typeof model.sessions.cached;
    const names = model.sessions.cached.inputNames;
    Object.defineProperty(swapped, 'inputNames', { value: [...names.slice(0, 3), ...names.slice(3).reverse()] });
    const broken = new (model.constructor as new (...args: unknown[]) => Moonshine)(
      ortNode,
      { ...model.sessions, cached: swapped },
      model.tokens,
    );
    // Reversed, the self-attention states land on the cross-attention inputs (different lengths): either it fails or decodes otherwise.
    const result = await broken.decode(await model.encode(samples)).then(
      (decoded) => decoded.tokens,
      () => 'failed',
    );
    expect(result).not.toEqual(expected.ids);
  });
});

describe('the 4-bit copy (int4 blocks, DequantizeLinear, opset 21), as the fit-memory bench writes Shruti shapes', () => {
  const dims = { dim: 64, heads: 2, layers: 2, vocab: 259 + FIXTURE_PIECES.length, ffn: 1, seed: 34, pieceBias: 6 };

  it('runs in the runtime as the reference loop does, its graphs about a seventh of the fp32 ones', async () => {
    const fp32 = writeMoonshineFixture(process.cwd(), 'q4-test-fp32', dims).dir;
    const q4 = writeMoonshineFixture(process.cwd(), 'q4-test', { ...dims, bits: 4 }).dir;
    const size = (dir: string) =>
      ['preprocess', 'encode', 'uncached_decode', 'cached_decode'].reduce(
        (sum, name) => sum + statSync(join(dir, `${name}.onnx`)).size,
        0,
      );
    expect(size(q4) / size(fp32)).toBeLessThan(0.2);
    const model = await startMoonshine(ortNode as unknown as Ort, dirLoader(q4), {}, 'cpu');
    const samples = clip(2.4, 1);
    const { tokens } = await model.decode(await model.encode(samples));
    expect(tokens.length).toBeGreaterThan(2);
    expect(tokens).toEqual((await reference(q4, samples)).ids);
  });
});
