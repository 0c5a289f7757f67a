import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { convert, WAV_16K_MONO } from '../fixtures/whisper/audio';
import { ensureTinyWhisper, FIXTURE_ROOT, FIXTURE_URL } from '../fixtures/whisper/ensure';
import { openHarness } from './support/page';

const JFK_WAV = 'audio/jfk-16k.wav';

test.beforeAll(async () => {
  await ensureTinyWhisper();
  convert('jfk.flac', join(FIXTURE_ROOT, JFK_WAV), WAV_16K_MONO);
});

test('a Whisper model loaded by its first request is in the weight store, and answers again from it', async ({ page }) => {
  await openHarness(page);
  const result = await page.evaluate(async ({ model, audio }) => {
    const transcribe = async (ai: ReturnType<typeof window.Vaani.createVaani>) => {
      const form = new FormData();
      form.set('file', new File([await (await fetch(audio)).blob()], 'jfk.wav'));
      form.set('model', 'speech-stt-v1');
      const response = await ai.fetch('/v1/audio/transcriptions', { method: 'POST', headers: { authorization: 'Bearer k' }, body: form });
      return { status: response.status, text: (await response.json()).text as string };
    };
    const options = { backend: 'wasm' as const, models: { 'speech-stt-v1': { baseURL: model, dtype: 'fp32' } } };
    const first = window.Vaani.createVaani(options);
    const cold = await transcribe(first);
    const cached = await first.models.cached();
    first.dispose();

    const second = window.Vaani.createVaani(options);
    const warm = await transcribe(second);
    second.dispose();
    return { cold, warm, cached: cached.map((entry) => ({ id: entry.id, bytes: entry.bytes })) };
  }, { model: `${FIXTURE_URL}tiny/`, audio: `${FIXTURE_URL}${JFK_WAV}` });
  expect(result.cold.status).toBe(200);
  expect(result.warm).toEqual(result.cold);
  expect(result.cached).toEqual([{ id: 'speech-stt-v1', bytes: expect.any(Number) }]);
  expect(result.cached[0]!.bytes).toBeGreaterThan(10_000);
});
