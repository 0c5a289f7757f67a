import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import decode from 'audio-decode';
import * as ortNode from 'onnxruntime-node';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Ort } from '../../../../src/common/backends/ort';
import { findIndicLayout } from '../../../../src/common/layouts/indic-conformer';
import { readConfig, startIndicConformer } from '../../../../src/worker/transcription/indic-conformer/load';
import type { IndicConformer } from '../../../../src/worker/transcription/indic-conformer/model';
import { joinText, joinWords } from '../../../../src/worker/transcription/indic-conformer/tokens';
import type { FileLoader } from '../../../../src/protocol/weights';
import { ensureTinyIndicConformer } from '../../../fixtures/indic-conformer/ensure';
import { Reference } from '../../../fixtures/indic-conformer/reference';
import { scriptRanges } from '../../../fixtures/indic-conformer/vocab';
import { SHARED_DIR } from '../../../support/shared';

const dirLoader = (dir: string): FileLoader => ({
  load: async (file) => new Uint8Array(await readFile(join(dir, file))),
  has: async (file) => existsSync(join(dir, file)),
});

async function speech(seconds: number): Promise<Float32Array> {
  const audio = await decode(await readFile(`${SHARED_DIR}audio/jfk.flac`));
  const channel = audio.channelData[0]!;
  const ratio = audio.sampleRate / 16000;
  return Float32Array.from({ length: Math.floor(seconds * 16000) }, (_, i) => channel[Math.floor(i * ratio)] ?? 0);
}

const inScript = (text: string, language: string) => {
  const ranges = scriptRanges(language);
  return [...text].every(
    (ch) => ch === ' ' || ranges.some(([a, b]) => ch.codePointAt(0)! >= a && ch.codePointAt(0)! <= b),
  );
};

describe('IndicConformer runtime on the generated fixture', () => {
  let model: IndicConformer;
  let reference: Reference;
  let samples: Float32Array;

  beforeAll(async () => {
    const dir = await ensureTinyIndicConformer();
    const loader = dirLoader(dir);
    const layout = (await findIndicLayout(loader, 'fp32', false))!;
    expect(layout).toEqual({ prefix: 'assets/', encoder: 'assets/encoder.onnx', rnnt: true });
    // onnxruntime-node names its CPU provider 'cpu'.
    model = await startIndicConformer(
      ortNode as unknown as Ort,
      loader,
      layout,
      'cpu' as never,
      await readConfig(loader),
    );
    const json = async (file: string) => JSON.parse(await readFile(join(dir, 'assets', file), 'utf8'));
    reference = new Reference(dir, await json('vocab.json'), await json('language_masks.json'));
    samples = await speech(4);
  });

  for (const language of ['hi', 'ta', 'sat']) {
    it(`CTC (${language}): the same tokens and text as the plain loop, in the language's script`, async () => {
      const encoded = await model.encode(samples);
      expect(encoded.frames).toBe(Math.floor((Math.floor(64000 / 160) + 1 - 1) / 4) + 1);
      expect(encoded.frameSeconds).toBeCloseTo(0.04, 6);
      const { tokens, avgLogprob } = await model.ctc(encoded, language);
      const expected = await reference.ctc(samples, language);
      expect(tokens.map((t) => t.id)).toEqual(expected.ids);
      expect(tokens.length).toBeGreaterThan(5);
      expect(joinText(tokens)).toBe(expected.text);
      expect(inScript(expected.text, language)).toBe(true);
      expect(expected.text).not.toContain('\ufffd');
      expect(avgLogprob).toBeLessThan(0);
      const words = joinWords(tokens, encoded.frameSeconds, 1.5);
      expect(words.map((w) => w.word).join(' ')).toBe(expected.text);
      for (const [i, word] of words.entries()) {
        expect(word.start).toBeGreaterThanOrEqual(1.5);
        expect(word.end).toBeGreaterThan(word.start);
        expect(word.end).toBeLessThanOrEqual(1.5 + 4 + 0.04);
        if (i > 0) expect(word.start).toBeGreaterThanOrEqual(words[i - 1]!.end);
      }
    });
  }

  for (const language of ['hi', 'sat']) {
    it(`RNN-T greedy (${language}): the same tokens as the published script's loop`, async () => {
      const encoded = await model.encode(samples);
      const tokens = await model.rnnt(encoded, language);
      expect(tokens.map((t) => t.id)).toEqual(await reference.rnnt(samples, language));
      expect(tokens.length).toBeGreaterThan(0);
      expect(inScript(joinText(tokens), language)).toBe(true);
    });
  }
});
