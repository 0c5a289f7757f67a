import { fileURLToPath } from 'node:url';
import * as ortNode from 'onnxruntime-node';
import { expect, test, type Page } from '@playwright/test';
import { loadEspeak } from '../../src/worker/speech/espeak';
import { splitClauses } from '../../src/worker/speech/prosody';
import { piperClausePhonemes, piperPhonemeIds } from '../../src/worker/speech/piper-ids';
import { parseTokens, sherpaCharacterIds, sherpaVitsMeta } from '../../src/worker/speech/sherpa-tokens';
import { findVoice } from '../../src/catalogue/voices';
import {
  PIPER_PHONEME_ID_MAP,
  RASA_METADATA,
  piperGraph,
  sherpaGraph,
  tokensTxt,
  writeVitsFixtures,
} from '../fixtures/tts-vits/files';
import { openHarness } from './support/page';
import { PAGE } from './support/widgets';
import { readWav } from './support/wav';

/**
 * The Piper and sherpa-onnx VITS runtimes in the TTS worker, through the openai SDK, on tiny
 * random-weight graphs in each layout (test/fixtures/tts-vits): the WAV's rate, a length that
 * follows `speed`, and the same samples onnxruntime-node gives for the ids the layouts' own rules
 * build from the same text.
 */
const ESPEAK_BASE = '/node_modules/@echogarden/espeak-ng-emscripten/';
const fixtures = writeVitsFixtures(fileURLToPath(new URL('../..', import.meta.url)));

async function start(page: Page, piper: string) {
  await openHarness(page);
  await page.evaluate(
    (models) => {
      (window as unknown as { vaani: unknown }).vaani = window.Vaani.createVaani({ auth: 'optional', models });
    },
    {
      'espeak-ng': { baseURL: ESPEAK_BASE },
      'piper-te-padmavathi': { baseURL: piper },
      'vits-rasa-13': { baseURL: fixtures.sherpa },
    },
  );
}

/** /v1/audio/speech through the openai SDK: status and bytes (the SDK's error body on failure). */
async function speak(page: Page, body: Record<string, unknown>) {
  const answer = await page.evaluate(async (request) => {
    const vaani = (window as unknown as { vaani: { baseURL: string; fetch: typeof fetch } }).vaani;
    const client = new window.OpenAI({
      baseURL: vaani.baseURL,
      apiKey: 'test',
      fetch: vaani.fetch,
      dangerouslyAllowBrowser: true,
      maxRetries: 0,
    });
    try {
      const response = await client.audio.speech.create(request as never);
      const bytes = new Uint8Array(await response.arrayBuffer());
      let binary = '';
      for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return { status: response.status, base64: btoa(binary), error: undefined };
    } catch (error) {
      const failed = error as { status?: number; error?: unknown };
      return { status: failed.status ?? 0, base64: '', error: failed.error };
    }
  }, body);
  return { ...answer, bytes: new Uint8Array(Buffer.from(answer.base64, 'base64')) };
}

async function reference(graph: Uint8Array, feeds: Record<string, ortNode.Tensor>, output: string) {
  const session = await ortNode.InferenceSession.create(graph);
  return (await session.run(feeds))[output]!.data as Float32Array;
}
const int64 = (values: number[]) => new ortNode.Tensor('int64', BigInt64Array.from(values, BigInt), [1, values.length]);
const one = (value: number) => new ortNode.Tensor('int64', BigInt64Array.of(BigInt(value)), [1]);
const f32 = (value: number) => new ortNode.Tensor('float32', Float32Array.of(value), [1]);
const worst = (a: Float32Array, b: Float32Array) => a.reduce((max, s, i) => Math.max(max, Math.abs(s - b[i]!)), 0);

test('a Piper voice: eSpeak phonemes → Piper ids → 22,050 Hz WAV; speed 2 through length_scale', async ({ page }) => {
  await start(page, fixtures.piper);
  const text = 'నమస్కారం, మీరు ఎలా ఉన్నారు?';
  const espeak = await loadEspeak('@echogarden/espeak-ng-emscripten');
  const phonemes = splitClauses(text)
    .map((clause) => piperClausePhonemes(clause, espeak.phonemes('te', clause)))
    .join('');
  const ids = piperPhonemeIds(phonemes, PIPER_PHONEME_ID_MAP);
  expect(ids.length).toBeGreaterThan(20);
  const lengths: number[] = [];
  for (const speed of [1, 2]) {
    const answer = await speak(page, {
      model: 'tts-1',
      voice: 'te-IN-piper-padmavathi',
      input: text,
      speed,
      response_format: 'wav',
      apply_text_normalization: 'off',
    });
    expect(answer.status, JSON.stringify(answer.error)).toBe(200);
    const audio = readWav(answer.bytes);
    expect(audio.sampleRate).toBe(22050);
    const expected = await reference(
      piperGraph(),
      {
        input: int64(ids),
        input_lengths: one(ids.length),
        scales: new ortNode.Tensor('float32', Float32Array.of(0.667, 1 / speed, 0.8), [3]),
      },
      'output',
    );
    expect(audio.samples.length).toBe(expected.length);
    expect(worst(audio.samples, expected)).toBeLessThan(3 / 32768);
    lengths.push(audio.samples.length);
  }
  expect(lengths[1]! / lengths[0]!).toBeGreaterThan(0.45);
  expect(lengths[1]! / lengths[0]!).toBeLessThan(0.65);
});

test('a sherpa-onnx VITS voice: character tokens, its speaker and emotion → 24 kHz WAV; speed 2 shortens it', async ({
  page,
}) => {
  await start(page, fixtures.piper);
  const voice = findVoice('ta-IN-rasa-female')!;
  if (voice.spec.engine !== 'sherpa-vits') throw new Error('not a sherpa-onnx voice');
  const text = 'வணக்கம், நீங்கள் எப்படி இருக்கிறீர்கள்?';
  const [ids] = sherpaCharacterIds(text, parseTokens(tokensTxt()), sherpaVitsMeta(RASA_METADATA));
  const lengths: number[] = [];
  for (const speed of [1, 2]) {
    const answer = await speak(page, { model: 'speech-tts-v1', voice: voice.id, input: text, speed });
    expect(answer.status, JSON.stringify(answer.error)).toBe(200);
    const audio = readWav(answer.bytes);
    expect(audio.sampleRate).toBe(24000);
    const expected = await reference(
      sherpaGraph(),
      {
        x: int64(ids!),
        x_length: one(ids!.length),
        noise_scale: f32(0.667),
        length_scale: f32(1 / speed),
        noise_scale_w: f32(0.8),
        sid: one(voice.spec.speaker),
        emotion_id: one(0),
      },
      'y',
    );
    expect(audio.samples.length).toBe(expected.length);
    expect(worst(audio.samples, expected)).toBeLessThan(3 / 32768);
    lengths.push(audio.samples.length);
  }
  expect(lengths[1]! / lengths[0]!).toBeGreaterThan(0.45);
  expect(lengths[1]! / lengths[0]!).toBeLessThan(0.65);
});

test('a broken .onnx.json is an OpenAI-shaped 503 naming it; the next request speaks; an unknown voice is a 404', async ({
  page,
}) => {
  await start(page, fixtures.piperBroken);
  const broken = await speak(page, { model: 'speech-tts-v1', voice: 'te-IN-piper-padmavathi', input: 'నమస్కారం' });
  expect(broken.status).toBe(503);
  expect(broken.error).toMatchObject({ type: 'server_error', code: 'model_load_failed', param: 'voice' });
  expect((broken.error as { message: string }).message).toContain('te_IN-padmavathi-medium.onnx.json');
  const next = await speak(page, { model: 'speech-tts-v1', voice: 'ta-IN-rasa-female', input: 'வணக்கம்' });
  expect(next.status, JSON.stringify(next.error)).toBe(200);
  const unknown = await speak(page, { model: 'speech-tts-v1', voice: 'ta-IN-rasa-nobody', input: 'வணக்கம்' });
  expect(unknown.status).toBe(404);
  expect(unknown.error).toMatchObject({ code: 'voice_not_found' });
});

test('<vaani-speak> shows the credit line of a CC-BY voice it speaks with, and none for an eSpeak voice', async ({
  page,
}) => {
  await openHarness(page, PAGE);
  await page.evaluate(
    (models) => {
      const ai = window.Vaani.createVaani({ auth: 'optional', models });
      window.Vaani.widgets.use(ai);
      document.querySelector('#root')!.innerHTML =
        '<vaani-speak id="rasa" voice="ta-IN-rasa-female" text="வணக்கம்."></vaani-speak>' +
        '<vaani-speak id="espeak" voice="ta-IN-female-1" text="வணக்கம்."></vaani-speak>';
    },
    { 'espeak-ng': { baseURL: ESPEAK_BASE }, 'vits-rasa-13': { baseURL: fixtures.sherpa } },
  );
  const played = (id: string) =>
    page.evaluate((id) => (document.getElementById(id) as unknown as { play(): Promise<unknown> }).play(), id);
  expect(await played('rasa')).toMatchObject({ sentences: 1, stopped: false });
  await expect(page.locator('#rasa [part~=credit]')).toContainText('AI4Bharat');
  expect(await played('espeak')).toMatchObject({ sentences: 1, stopped: false });
  await expect(page.locator('#espeak [part~=credit]')).toHaveText('');
});
