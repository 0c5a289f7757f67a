import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import { loadEspeak } from '../../src/worker/speech/espeak';
import { kokoroBatches, kokoroIds, kokoroText } from '../../src/worker/speech/kokoro-tokens';
import { splitClauses } from '../../src/worker/speech/prosody';
import {
  KOKORO_SAMPLES_PER_TOKEN,
  KOKORO_VOCAB,
  VITS_SAMPLES_PER_TOKEN,
  writeTtsFixtures,
} from './support/tts-fixtures';
import { openHarness } from './support/page';
import { readWav } from './support/wav';

const ESPEAK_BASE = '/node_modules/@echogarden/espeak-ng-emscripten/';
const fixtures = writeTtsFixtures(fileURLToPath(new URL('../..', import.meta.url)));

async function start(page: Page, models: Record<string, { baseURL: string }>) {
  await openHarness(page);
  await page.evaluate(
    (sources) => {
      (window as unknown as { vaani: unknown }).vaani = window.Vaani.createVaani({ auth: 'optional', models: sources });
    },
    { 'espeak-ng': { baseURL: ESPEAK_BASE }, ...models },
  );
}

async function speak(page: Page, body: Record<string, unknown>) {
  const answer = await page.evaluate(async (request) => {
    const vaani = (window as unknown as { vaani: { fetch: typeof fetch } }).vaani;
    const response = await vaani.fetch('/v1/audio/speech', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { status: response.status, type: response.headers.get('content-type'), base64: btoa(binary) };
  }, body);
  return { status: answer.status, type: answer.type, bytes: new Uint8Array(Buffer.from(answer.base64, 'base64')) };
}

/** The phoneme ids the runtime should feed Kokoro, computed here with the same eSpeak. */
async function expectedKokoroBatches(text: string) {
  const espeak = await loadEspeak('@echogarden/espeak-ng-emscripten');
  const phonemes = kokoroText(splitClauses(text), (clause) => espeak.phonemes('hi', clause));
  return kokoroBatches(kokoroIds(phonemes, KOKORO_VOCAB), KOKORO_VOCAB[' ']);
}

test('a Kokoro voice feeds eSpeak phonemes, the style row for their count and the speed to the model', async ({
  page,
}) => {
  await start(page, { 'kokoro-82m': { baseURL: fixtures.kokoro } });
  const text = 'नमस्ते, आप कैसे हैं?';
  const [batch] = await expectedKokoroBatches(text);
  expect(batch!.length).toBeGreaterThan(5);
  for (const speed of [1, 2]) {
    const answer = await speak(page, { model: 'speech-tts-v1', voice: 'hi-IN-kokoro-alpha', input: text, speed });
    expect(answer.status, new TextDecoder().decode(answer.bytes)).toBe(200);
    const audio = readWav(answer.bytes);
    expect(audio.sampleRate).toBe(24000);
    expect(audio.samples.length).toBe(Math.floor(((batch!.length + 2) * KOKORO_SAMPLES_PER_TOKEN) / speed));
    expect(audio.samples[100]!).toBeCloseTo((batch!.length + 1) / 1000, 4);
  }
});

test('long Kokoro input is cut into runs of at most 510 phonemes, each with its own style row', async ({ page }) => {
  await start(page, { 'kokoro-82m': { baseURL: fixtures.kokoro } });
  const text = 'आज मौसम बहुत अच्छा है, और हम सब बाज़ार जाएँगे। '.repeat(14);
  const batches = await expectedKokoroBatches(text);
  expect(batches.length).toBeGreaterThan(1);
  const answer = await speak(page, { model: 'speech-tts-v1', voice: 'hi-IN-kokoro-omega', input: text });
  const audio = readWav(answer.bytes);
  expect(audio.samples.length).toBe(batches.reduce((sum, b) => sum + (b.length + 2) * KOKORO_SAMPLES_PER_TOKEN, 0));
  expect(audio.samples[100]!).toBeCloseTo((Math.min(batches[0]!.length, 509) + 1) / 1000, 4);
  expect(audio.samples.at(-100)!).toBeCloseTo((batches.at(-1)!.length + 1) / 1000, 4);
});

test('a VITS voice feeds blank-interspersed lower-case character ids, clause by clause; speed stretches it', async ({
  page,
}) => {
  await start(page, { 'mms-tts-hin': { baseURL: fixtures.vits } });
  const normal = readWav((await speak(page, { model: 'speech-tts-v1', voice: 'hi-IN-mms-1', input: 'Hi, ok.' })).bytes);
  expect(normal.sampleRate).toBe(16000);
  const clause = 5 * VITS_SAMPLES_PER_TOKEN;
  expect(normal.samples.length).toBe(2 * clause + 0.15 * 16000);
  expect(normal.samples[10]).toBe(0);
  expect(normal.samples[VITS_SAMPLES_PER_TOKEN + 10]!).toBeCloseTo(8 / 100, 3);
  expect(normal.samples[3 * VITS_SAMPLES_PER_TOKEN + 10]!).toBeCloseTo(9 / 100, 3);
  const fast = readWav(
    (await speak(page, { model: 'speech-tts-v1', voice: 'hi-IN-mms-1', input: 'Hi, ok.', speed: 2 })).bytes,
  );
  expect(fast.samples.length / normal.samples.length).toBeGreaterThan(0.45);
  expect(fast.samples.length / normal.samples.length).toBeLessThan(0.55);
});

test('missing neural weights are a 503 naming the file; the worker still speaks eSpeak voices', async ({ page }) => {
  await start(page, { 'kokoro-82m': { baseURL: '/test/.fixtures/tts/nowhere/' } });
  const failed = await speak(page, { model: 'speech-tts-v1', voice: 'hi-IN-kokoro-beta', input: 'नमस्ते' });
  expect(failed.status).toBe(503);
  const { error } = JSON.parse(new TextDecoder().decode(failed.bytes));
  expect(error).toMatchObject({ type: 'server_error', code: 'model_load_failed', param: 'voice' });
  expect(error.message).toMatch(/model_quantized\.onnx|tokenizer\.json/);
  const next = await speak(page, { model: 'speech-tts-v1', voice: 'hi-IN-female-1', input: 'नमस्ते' });
  expect(next.status).toBe(200);
});

test('a neural voice whose language the runtime cannot read is a 400, not another voice', async ({ page }) => {
  await start(page, { 'mms-tts-hin': { baseURL: fixtures.vitsUroman } });
  const refused = await speak(page, { model: 'speech-tts-v1', voice: 'hi-IN-mms-1', input: 'Hi, ok.' });
  expect(refused.status).toBe(400);
  expect(JSON.parse(new TextDecoder().decode(refused.bytes)).error).toMatchObject({
    type: 'invalid_request_error',
    code: 'voice_unavailable',
    param: 'voice',
  });
  expect((await speak(page, { model: 'speech-tts-v1', voice: 'hi-IN-female-1', input: 'नमस्ते' })).status).toBe(200);
});
