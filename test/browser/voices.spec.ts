import { expect, test } from '@playwright/test';
import { VOICES } from '../../src/catalogue/voices';
import { openHarness } from './support/page';

test('GET /v1/voices lists the catalogue without starting a worker, with download sizes for neural voices', async ({
  page,
}) => {
  await openHarness(page);
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  const body = await page.evaluate(async () => {
    const vaani = window.Vaani.createVaani({ auth: 'optional' });
    const client = new window.OpenAI({
      baseURL: vaani.baseURL,
      apiKey: 'test',
      fetch: vaani.fetch,
      dangerouslyAllowBrowser: true,
      maxRetries: 0,
    });
    return client.get('/voices') as Promise<{
      voices: Record<string, unknown>[];
      models: { id: string; kind: string }[];
      licences: string;
    }>;
  });
  expect(body.voices.length).toBe(VOICES.length);
  for (const voice of VOICES) {
    const listed = body.voices.find((v) => v.id === voice.id);
    expect(listed, voice.id).toMatchObject({
      name: voice.name,
      language: voice.language,
      languageCode: voice.languageCode,
      gender: voice.gender,
      license: voice.license,
      commercial: voice.commercial,
    });
    expect(listed!.attribution).toBe(voice.attribution);
    expect(listed!.languageCode).toMatch(/^[a-z]{2,3}-[A-Z]{2}$/);
    if (voice.spec.engine === 'espeak') expect(listed!.downloadBytes).toBeUndefined();
    else expect(listed!.downloadBytes).toBe(voice.spec.download.bytes);
  }
  expect(body.voices.filter((v) => String(v.id).startsWith('hi-IN-kokoro-')).map((v) => v.gender)).toEqual([
    'female',
    'female',
    'male',
    'male',
  ]);
  expect(body.models).toEqual(expect.arrayContaining([{ id: 'speech-tts-v1', kind: 'tts' }]));
  expect(body.licences).toBe('commercial');
  expect(body.voices.find((v) => v.id === 'ta-IN-rasa-female')).toMatchObject({
    license: 'CC-BY-4.0',
    commercial: true,
    attribution: expect.stringContaining('AI4Bharat'),
  });
  expect(body.voices.find((v) => v.id === 'hi-IN-mms-1')).toMatchObject({ commercial: false });
  expect(workers.filter((url) => url.includes('speech.worker'))).toEqual([]);
});

test('speech-v1-turbo speaks the same voices on /v1/audio/speech', async ({ page }) => {
  await openHarness(page);
  const status = await page.evaluate(async () => {
    const vaani = window.Vaani.createVaani({
      auth: 'optional',
      models: { 'espeak-ng': { baseURL: '/node_modules/@echogarden/espeak-ng-emscripten/' } },
    });
    const response = await vaani.fetch('/v1/audio/speech', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'speech-v1-turbo', voice: 'ta-IN-male-1', input: 'வணக்கம்' }),
    });
    return `${response.status} ${response.headers.get('content-type')}`;
  });
  expect(status).toBe('200 audio/wav');
});
