import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as ortNode from 'onnxruntime-node';
import { beforeAll, describe, expect, it } from 'vitest';
import { speakPiper } from '../../../src/worker/speech/piper';
import { speakSherpaVits } from '../../../src/worker/speech/sherpa-vits';
import { piperPhonemeIds, piperTextPhonemes } from '../../../src/worker/speech/piper-ids';
import type { SpeakContext } from '../../../src/worker/speech/job';
import type { CatalogueVoice, SpeakJob } from '../../../src/protocol/speech';
import { findVoice } from '../../../src/catalogue/voices';
import {
  PIPER_PHONEME_ID_MAP,
  PIPER_VOICE_FILE,
  piperConfig,
  piperGraph,
  sherpaGraph,
  tokensTxt,
} from '../../fixtures/tts-vits/files';
import { HOP } from '../../fixtures/tts-vits/graph';

/**
 * The worker's Piper and sherpa-onnx runtimes (on onnxruntime-web's WASM, in Node) against
 * onnxruntime-node running the same graph on ids built here from the layouts' own rules: the same
 * samples, the sample rate the layout says, and a length that follows `speed`.
 */
beforeAll(async () => {
  const web = await import('onnxruntime-web/wasm');
  const dist = dirname(createRequire(import.meta.url).resolve('onnxruntime-web/wasm'));
  web.env.wasm.numThreads = 1;
  web.env.wasm.wasmBinary = readFileSync(join(dist, 'ort-wasm-simd-threaded.wasm'));
});

const context = (files: Record<string, Uint8Array | string>): SpeakContext => ({
  espeak: () => Promise.reject(new Error('no eSpeak in this test')),
  files: () => ({
    has: async (file) => file in files,
    load: async (file) => {
      const content = files[file];
      if (content === undefined) throw new Error(`404 ${file}`);
      return typeof content === 'string' ? new TextEncoder().encode(content) : content;
    },
  }),
  signal: new AbortController().signal,
});

const job = (voice: CatalogueVoice, text: string, speed = 1, base = `mem:${Math.random()}`): SpeakJob => ({
  voice,
  text,
  format: 'wav',
  normalize: false,
  speed,
  stability: 0.5,
  style: 0.35,
  encoders: {},
  weightsBase: base,
});

async function nodeRun(graph: Uint8Array, feeds: Record<string, ortNode.Tensor>, output: string) {
  const session = await ortNode.InferenceSession.create(graph);
  return (await session.run(feeds))[output]!.data as Float32Array;
}
const int64 = (values: number[]) => new ortNode.Tensor('int64', BigInt64Array.from(values, BigInt), [1, values.length]);
const one = (value: number) => new ortNode.Tensor('int64', BigInt64Array.of(BigInt(value)), [1]);
const f32 = (value: number) => new ortNode.Tensor('float32', Float32Array.of(value), [1]);

describe('Piper runtime', () => {
  const voice = findVoice('te-IN-piper-padmavathi')!;
  // A `text` voice reads characters: no phonemiser, so the test needs no eSpeak.
  const textMap = { ...PIPER_PHONEME_ID_MAP, ...Object.fromEntries([...'అమనలకరం'].map((c, i) => [c, [160 + i]])) };
  const config = piperConfig({ phoneme_type: 'text', phoneme_id_map: textMap, espeak: undefined });
  const graph = piperGraph();
  const files = { [PIPER_VOICE_FILE]: graph, [`${PIPER_VOICE_FILE}.json`]: JSON.stringify(config) };

  it('gives the samples onnxruntime-node gives for Piper ids; speed shortens it through length_scale', async () => {
    const text = 'అమ్మ కలం';
    const expectedIds = piperPhonemeIds(piperTextPhonemes(text), textMap);
    expect(expectedIds.slice(0, 4)).toEqual([1, 0, 160, 0]);
    for (const speed of [1, 2]) {
      const audio = await speakPiper(job(voice, text, speed), context(files));
      expect(audio.sampleRate).toBe(22050);
      const expected = await nodeRun(
        graph,
        {
          input: int64(expectedIds),
          input_lengths: one(expectedIds.length),
          scales: new ortNode.Tensor('float32', Float32Array.of(0.667, 1 / speed, 0.8), [3]),
        },
        'output',
      );
      expect(audio.samples.length).toBe(expected.length);
      expect(Math.max(...audio.samples.map((s, i) => Math.abs(s - expected[i]!)))).toBeLessThan(1e-5);
    }
    const slow = (await speakPiper(job(voice, text, 1), context(files))).samples.length;
    const fast = (await speakPiper(job(voice, text, 2), context(files))).samples.length;
    expect(fast % HOP).toBe(0);
    expect(fast / slow).toBeGreaterThan(0.45);
    expect(fast / slow).toBeLessThan(0.65);
  });

  it('a broken .onnx.json is a 503 naming the file; the next load of a good one works', async () => {
    const base = `mem:broken`;
    const broken = { ...files, [`${PIPER_VOICE_FILE}.json`]: '{ "audio": ' };
    await expect(speakPiper(job(voice, 'అమ', 1, base), context(broken))).rejects.toMatchObject({
      kind: 'unavailable',
      code: 'model_load_failed',
      message: expect.stringContaining(`${PIPER_VOICE_FILE}.json`),
    });
    const noMap = { ...files, [`${PIPER_VOICE_FILE}.json`]: JSON.stringify({ audio: { sample_rate: 22050 } }) };
    await expect(speakPiper(job(voice, 'అమ', 1, `${base}2`), context(noMap))).rejects.toMatchObject({
      message: expect.stringContaining('phoneme_id_map'),
    });
    expect((await speakPiper(job(voice, 'అమ', 1, base), context(files))).samples.length).toBeGreaterThan(0);
  });

  it('an eSpeak voice without the eSpeak-NG plug-in says it needs the optional GPL plug-in', async () => {
    const espeakFiles = { ...files, [`${PIPER_VOICE_FILE}.json`]: JSON.stringify(piperConfig()) };
    const ctx = context(espeakFiles);
    const { EngineError } = await import('../../../src/protocol/errors');
    ctx.espeak = () =>
      Promise.reject(new EngineError('unavailable', 'Loading espeak-ng.js failed', 'tts_plugin_missing'));
    await expect(speakPiper(job(voice, 'నమస్కారం'), ctx)).rejects.toMatchObject({
      code: 'tts_plugin_missing',
      message: expect.stringMatching(/Piper voice.*eSpeak-NG plug-in \(GPL-3\.0/),
    });
  });
});

describe('sherpa-onnx VITS runtime', () => {
  const voice = findVoice('ta-IN-rasa-female')!;
  const graph = sherpaGraph();
  const files = { 'model.onnx': graph, 'tokens.txt': tokensTxt() };

  it("gives onnxruntime-node's samples for the character ids, speaker and emotion; 24 kHz; speed shortens it", async () => {
    if (voice.spec.engine !== 'sherpa-vits') throw new Error('not a sherpa voice');
    const text = 'வணக்கம்';
    const symbols = tokensTxt().split('\n');
    const id = (c: string) => symbols.findIndex((line) => line.startsWith(`${c} `));
    const ids = [0, ...[...text].flatMap((c) => [id(c), 0])];
    const lengths: number[] = [];
    for (const speed of [1, 2]) {
      const audio = await speakSherpaVits(job(voice, text, speed), context(files));
      expect(audio.sampleRate).toBe(24000);
      const expected = await nodeRun(
        graph,
        {
          x: int64(ids),
          x_length: one(ids.length),
          noise_scale: f32(0.667),
          length_scale: f32(1 / speed),
          noise_scale_w: f32(0.8),
          sid: one(voice.spec.speaker),
          emotion_id: one(0),
        },
        'y',
      );
      expect(audio.samples.length).toBe(expected.length);
      expect(Math.max(...audio.samples.map((s, i) => Math.abs(s - expected[i]!)))).toBeLessThan(1e-5);
      lengths.push(audio.samples.length);
    }
    expect(lengths[1]! / lengths[0]!).toBeGreaterThan(0.45);
    expect(lengths[1]! / lengths[0]!).toBeLessThan(0.65);
  });

  it('a model whose metadata has no sample_rate is a 503 naming model.onnx', async () => {
    const { piperGraph: bare } = await import('../../fixtures/tts-vits/files');
    await expect(
      speakSherpaVits(job(voice, 'வணக்கம்'), context({ 'model.onnx': bare(), 'tokens.txt': tokensTxt() })),
    ).rejects.toMatchObject({ kind: 'unavailable', message: expect.stringContaining('sample_rate') });
  });
});
