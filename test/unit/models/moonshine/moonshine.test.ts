import { existsSync } from 'node:fs';
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

/**
 * The second implementation: sherpa-onnx's scripts/moonshine/test.py loop written again over
 * onnxruntime-node (inputs by name in input order, argmax of the raw logits, max_len from the
 * audio length), and its text from the fixture's own piece list rather than tokens.txt.
 */
async function reference(dir: string, samples: Float32Array): Promise<{ ids: number[]; text: string }> {
  const open = (name: string) => ortNode.InferenceSession.create(join(dir, name));
  const [pre, enc, unc, cac] = await Promise.all(
    ['preprocess.onnx', 'encode.onnx', 'uncached_decode.onnx', 'cached_decode.onnx'].map(open),
  );
  const { Tensor } = ortNode;
  const int = (v: number, dims: number[]) => new Tensor('int32', Int32Array.of(v), dims);
  const features = (await pre!.run({ [pre!.inputNames[0]!]: new Tensor('float32', samples, [1, samples.length]) }))[
    pre!.outputNames[0]!
  ]!;
  const context = (
    await enc!.run({ [enc!.inputNames[0]!]: features, [enc!.inputNames[1]!]: int(features.dims[1]!, [1]) })
  )[enc!.outputNames[0]!]!;
  const tokens = [1];
  let out = await unc!.run({
    [unc!.inputNames[0]!]: int(1, [1, 1]),
    [unc!.inputNames[1]!]: context,
    [unc!.inputNames[2]!]: int(1, [1]),
  });
  const maxLen = Math.floor((samples.length / 16000) * 6);
  for (let i = 0; i < maxLen; i++) {
    const logits = out[unc!.outputNames[0]!]!.data as Float32Array;
    let best = 0;
    for (let j = 1; j < logits.length; j++) if (logits[j]! > logits[best]!) best = j;
    if (best === 2) break;
    tokens.push(best);
    const feeds: Record<string, ortNode.Tensor> = {
      [cac!.inputNames[0]!]: int(best, [1, 1]),
      [cac!.inputNames[1]!]: context,
      [cac!.inputNames[2]!]: int(tokens.length, [1]),
    };
    const states = unc!.outputNames.slice(1).map((name) => out[name]!);
    cac!.inputNames.slice(3).forEach((name, k) => (feeds[name] = states[k]!));
    const next = await cac!.run(feeds);
    out = Object.fromEntries(unc!.outputNames.map((name, k) => [name, next[cac!.outputNames[k]!]!]));
  }
  const ids = tokens.slice(1);
  const bytes: number[] = [];
  for (const id of ids) {
    if (id >= 3 && id <= 258) bytes.push(id - 3);
    else if (id >= 259) bytes.push(...new TextEncoder().encode(FIXTURE_PIECES[id - 259]!.replaceAll('▁', ' ')));
  }
  return { ids, text: new TextDecoder().decode(Uint8Array.from(bytes)).trim() };
}

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
