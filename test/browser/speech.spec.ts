import { expect, test, type Page } from '@playwright/test';
import { findVoice, VOICES } from '../../src/catalogue/voices';
import { openHarness } from './support/page';
import { pitchStats } from './support/pitch';
import { readWav } from './support/wav';

/** The eSpeak plug-in's folder as the test server serves it (a site would copy it to its own path). */
const ESPEAK_BASE = '/node_modules/@echogarden/espeak-ng-emscripten/';
const HINDI = 'नमस्ते, आप कैसे हैं? आज मौसम बहुत अच्छा है। मैं ठीक हूँ, धन्यवाद। कल हम बाज़ार जाएँगे, और फल खरीदेंगे।';

interface Answer {
  status: number;
  type: string | null;
  body: string;
}

/** Starts a Vaani in the page and returns a function that POSTs /v1/audio/speech with plain fetch. */
async function start(page: Page, espeakBase: string | null = ESPEAK_BASE) {
  await openHarness(page);
  await page.evaluate((base) => {
    const models: Record<string, { baseURL: string }> = base ? { 'espeak-ng': { baseURL: base } } : {};
    (window as unknown as { vaani: unknown }).vaani = window.Vaani.createVaani({ auth: 'optional', models });
  }, espeakBase);
}

async function speak(page: Page, body: Record<string, unknown>): Promise<Answer> {
  return page.evaluate(async (request) => {
    const vaani = (window as unknown as { vaani: { fetch: typeof fetch } }).vaani;
    const response = await vaani.fetch('/v1/audio/speech', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(request),
    });
    const bytes = new Uint8Array(await response.arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { status: response.status, type: response.headers.get('content-type'), body: btoa(binary) };
  }, body);
}

const audioOf = (answer: Answer) => {
  expect(answer.status, Buffer.from(answer.body, 'base64').toString()).toBe(200);
  expect(answer.type).toBe('audio/wav');
  return readWav(new Uint8Array(Buffer.from(answer.body, 'base64')));
};
const errorOf = (answer: Answer) =>
  JSON.parse(Buffer.from(answer.body, 'base64').toString()) as {
    error: { code: string; type: string; message: string; param: string | null };
  };
const seconds = (audio: { samples: Float32Array; sampleRate: number }) => audio.samples.length / audio.sampleRate;

test("the openai SDK speaks a Hindi voice as 16-bit mono WAV at the voice's pitch", async ({ page }) => {
  await start(page);
  const base64 = await page.evaluate(async (text) => {
    const vaani = (window as unknown as { vaani: { fetch: typeof fetch; baseURL: string } }).vaani;
    const client = new window.OpenAI({
      baseURL: vaani.baseURL,
      apiKey: 'test',
      fetch: vaani.fetch,
      dangerouslyAllowBrowser: true,
      maxRetries: 0,
    });
    const response = await client.audio.speech.create({
      model: 'speech-tts-v1',
      voice: 'hi-IN-female-1',
      input: text,
    } as never);
    const bytes = new Uint8Array(await response.arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  }, findVoice('hi-IN-female-1')!.sampleText);
  const audio = readWav(new Uint8Array(Buffer.from(base64, 'base64')));
  expect([audio.channels, audio.bits, audio.sampleRate]).toEqual([1, 16, 22050]);
  expect(seconds(audio)).toBeGreaterThan(1.5);
  expect(
    Math.abs(pitchStats(audio.samples, audio.sampleRate).median / findVoice('hi-IN-female-1')!.medianF0 - 1),
  ).toBeLessThan(0.1);
});

test('every offline voice in the catalogue speaks its language at its catalogue pitch', async ({ page }) => {
  test.setTimeout(300_000);
  await start(page);
  for (const voice of VOICES.filter((v) => v.spec.engine === 'espeak')) {
    const audio = audioOf(await speak(page, { model: 'speech-tts-v1', voice: voice.id, input: voice.sampleText }));
    expect(seconds(audio), voice.id).toBeGreaterThan(1);
    const { median } = pitchStats(audio.samples, audio.sampleRate);
    expect(Math.abs(median / voice.medianF0 - 1), `${voice.id}: ${median.toFixed(1)} Hz`).toBeLessThan(0.1);
  }
});

test('speed changes the duration; style and stability change the F0 spread', async ({ page }) => {
  await start(page);
  const say = async (extra: Record<string, number>) =>
    audioOf(await speak(page, { model: 'speech-tts-v1', voice: 'hi-IN-female-1', input: HINDI, ...extra }));
  const [slow, normal, fast] = [await say({ speed: 0.5 }), await say({ speed: 1 }), await say({ speed: 2 })];
  expect(seconds(slow) / seconds(normal)).toBeGreaterThan(1.6);
  expect(seconds(normal) / seconds(fast)).toBeGreaterThan(1.6);

  const pitch = async (extra: Record<string, number>) => {
    const audio = await say(extra);
    return pitchStats(audio.samples, audio.sampleRate);
  };
  const [flat, expressive] = [await pitch({ stability: 1, style: 0 }), await pitch({ stability: 1, style: 1 })];
  expect(expressive.rangeSemitones).toBeGreaterThan(flat.rangeSemitones + 3);
  const [steady, unstable] = [await pitch({ stability: 1 }), await pitch({ stability: 0 })];
  expect(unstable.spreadSemitones).toBeGreaterThan(steady.spreadSemitones + 0.5);
});

test('a Hindi voice reads ₹1,25,000 as लाख and रुपये; apply_text_normalization: off speaks it as written', async ({
  page,
}) => {
  await start(page);
  const say = async (input: string, extra: Record<string, unknown> = {}) =>
    audioOf(await speak(page, { model: 'speech-tts-v1', voice: 'hi-IN-female-1', input, ...extra })).samples.length;
  // eSpeak's samples differ slightly from call to call (its state carries over), its timing does not:
  // the same words give the same length, ₹1,25,000 read digit group by digit group a much longer one.
  const normalised = await say('₹1,25,000');
  const spelled = await say('एक लाख पच्चीस हज़ार रुपये', { apply_text_normalization: 'off' });
  const asWritten = await say('₹1,25,000', { apply_text_normalization: 'off' });
  expect(Math.abs(normalised - spelled) / spelled, `${normalised} vs ${spelled} samples`).toBeLessThan(0.01);
  expect(Math.abs(asWritten - spelled) / spelled, `${asWritten} vs ${spelled} samples`).toBeGreaterThan(0.2);
});

test('bad requests get OpenAI-shaped errors and the engine keeps working', async ({ page }) => {
  await start(page);
  const tooLong = errorOf(
    await speak(page, { model: 'speech-tts-v1', voice: 'hi-IN-female-1', input: 'क'.repeat(4097) }),
  );
  expect(tooLong.error).toMatchObject({ type: 'invalid_request_error', param: 'input' });
  const unknown = errorOf(await speak(page, { model: 'speech-tts-v1', voice: 'sa-IN-female-1', input: 'नमः' }));
  expect(unknown.error).toMatchObject({ type: 'not_found_error', code: 'voice_not_found', param: 'voice' });
  const silent = await speak(page, { model: 'speech-tts-v1', voice: 'hi-IN-female-1', input: '... !!' });
  expect(silent.status).toBe(400);
  expect(errorOf(silent).error).toMatchObject({ code: 'invalid_value', param: 'input' });
  const speed = await speak(page, { model: 'speech-tts-v1', voice: 'hi-IN-female-1', input: 'नमस्ते', speed: 3 });
  expect(speed.status).toBe(400);
  expect(
    seconds(audioOf(await speak(page, { model: 'speech-tts-v1', voice: 'hi-IN-female-1', input: 'नमस्ते' }))),
  ).toBeGreaterThan(0.3);
});

test('a missing plug-in is a clear 503; the next request with it configured works', async ({ page }) => {
  await start(page, null);
  const unmapped = await speak(page, { model: 'speech-tts-v1', voice: 'hi-IN-male-1', input: 'नमस्ते' });
  expect(unmapped.status).toBe(503);
  expect(errorOf(unmapped).error).toMatchObject({ type: 'server_error', code: 'tts_plugin_missing' });
  expect(errorOf(unmapped).error.message).toContain('npm install @echogarden/espeak-ng-emscripten');
  await start(page, '/no-such-folder/');
  const missing = await speak(page, { model: 'speech-tts-v1', voice: 'hi-IN-male-1', input: 'नमस्ते' });
  expect(missing.status).toBe(503);
  expect(errorOf(missing).error.message).toContain('espeak-ng.data');
  await start(page);
  expect(
    seconds(audioOf(await speak(page, { model: 'speech-tts-v1', voice: 'hi-IN-male-1', input: 'नमस्ते' }))),
  ).toBeGreaterThan(0.3);
});

test('an aborted request stops the worker, which answers the next one', async ({ page }) => {
  await start(page);
  await speak(page, { model: 'speech-tts-v1', voice: 'en-US-male-1', input: 'Warm up.' });
  const outcome = await page.evaluate(async () => {
    const vaani = (window as unknown as { vaani: { fetch: typeof fetch } }).vaani;
    const long = 'This sentence is spoken again and again, clause after clause. '.repeat(60);
    const controller = new AbortController();
    const started = performance.now();
    const pending = vaani.fetch('/v1/audio/speech', {
      method: 'POST',
      body: JSON.stringify({ model: 'speech-tts-v1', voice: 'en-US-male-1', input: long }),
      headers: { 'content-type': 'application/json' },
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    const error = await pending.then(
      () => 'completed',
      (e: Error) => e.name,
    );
    const next = await vaani.fetch('/v1/audio/speech', {
      method: 'POST',
      body: JSON.stringify({ model: 'speech-tts-v1', voice: 'en-US-male-1', input: 'Still here.' }),
      headers: { 'content-type': 'application/json' },
    });
    return { error, status: next.status, ms: performance.now() - started };
  });
  expect(outcome.error).toBe('AbortError');
  expect(outcome.status).toBe(200);
});

test("a WAV answer streams its header, then the engine's samples as one chunk (nothing copied on the way)", async ({
  page,
}) => {
  await start(page);
  const chunks = await page.evaluate(async () => {
    const vaani = (window as unknown as { vaani: { fetch: typeof fetch } }).vaani;
    const response = await vaani.fetch('/v1/audio/speech', {
      method: 'POST',
      body: JSON.stringify({ model: 'speech-tts-v1', voice: 'hi-IN-female-1', input: 'नमस्ते, आप कैसे हैं?' }),
      headers: { 'content-type': 'application/json' },
    });
    const reader = response.body!.getReader();
    const read: Uint8Array[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) read.push(next.value);
    return { sizes: read.map((chunk) => chunk.byteLength), data: new DataView(read[0]!.buffer).getUint32(40, true) };
  });
  expect(chunks.sizes).toEqual([44, chunks.data]);
  expect(chunks.data).toBeGreaterThan(22050);
});

test("OpenAI's names speak: tts-1 with alloy through the openai SDK is en-US-female-1 on speech-tts-v1", async ({
  page,
}) => {
  await start(page);
  const alias = await page.evaluate(async () => {
    const vaani = (window as unknown as { vaani: { fetch: typeof fetch; baseURL: string } }).vaani;
    const client = new window.OpenAI({
      baseURL: vaani.baseURL,
      apiKey: 'test',
      fetch: vaani.fetch,
      dangerouslyAllowBrowser: true,
    });
    const audio = await client.audio.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: 'Hello from the browser.',
    });
    const bytes = new Uint8Array(await audio.arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(binary);
  });
  const direct = audioOf(
    await speak(page, { model: 'speech-tts-v1', voice: 'en-US-female-1', input: 'Hello from the browser.' }),
  );
  const viaAlias = readWav(new Uint8Array(Buffer.from(alias, 'base64')));
  expect(seconds(viaAlias)).toBeGreaterThan(0.5);
  // eSpeak's prosody varies a little between calls; the same voice gives the same length.
  expect(viaAlias.sampleRate).toBe(direct.sampleRate);
  expect(viaAlias.samples.length).toBe(direct.samples.length);
});
