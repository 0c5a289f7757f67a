import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { WHISPER_LANGUAGES } from '../../src/catalogue/languages/whisper';
import { convert, WAV_16K_MONO } from '../fixtures/whisper/audio';
import { ensureTinyWhisper, FIXTURE_ROOT, FIXTURE_URL } from '../fixtures/whisper/ensure';
import { openHarness } from './support/page';

const MODEL = `${FIXTURE_URL}tiny/`;

interface Posted {
  status: number;
  type: string | null;
  body: string;
}

/** POSTs multipart requests (audio by URL, or raw text bytes) through one Vaani whose speech-stt-v1 is the fixture. */
function post(
  page: Page,
  requests: { audio: string; bytes?: string; fields: Record<string, string> }[],
): Promise<Posted[]> {
  return page.evaluate(
    async ({ model, requests }) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: { 'speech-stt-v1': { baseURL: model, dtype: 'fp32', indic: false } },
      });
      const out = [];
      for (const request of requests) {
        const form = new FormData();
        const blob =
          request.bytes !== undefined ? new Blob([request.bytes]) : await (await fetch(request.audio)).blob();
        form.set('file', new File([blob], request.audio.split('/').pop()!));
        for (const [key, value] of Object.entries({ model: 'speech-stt-v1', ...request.fields })) form.set(key, value);
        const response = await ai.fetch('/v1/audio/transcriptions', {
          method: 'POST',
          headers: { authorization: 'Bearer k' },
          body: form,
        });
        out.push({ status: response.status, type: response.headers.get('content-type'), body: await response.text() });
      }
      ai.dispose();
      return out;
    },
    { model: MODEL, requests },
  );
}

const audio = (name: string) => `${FIXTURE_URL}audio/${name}`;

test.beforeAll(async () => {
  await ensureTinyWhisper();
  convert('jfk.flac', join(FIXTURE_ROOT, 'audio/jfk-16k.wav'), WAV_16K_MONO);
  convert('jfk.flac', join(FIXTURE_ROOT, 'audio/jfk.flac'), ['-c:a', 'flac']);
  convert('1272-141231-0002.mp3', join(FIXTURE_ROOT, 'audio/librispeech.mp3'), ['-c:a', 'copy']);
  convert('jfk.flac', join(FIXTURE_ROOT, 'audio/jfk.ogg'), ['-c:a', 'libopus', '-b:a', '32k']);
  convert('jfk.flac', join(FIXTURE_ROOT, 'audio/jfk.webm'), ['-c:a', 'libopus', '-b:a', '32k']);
  convert('jfk.flac', join(FIXTURE_ROOT, 'audio/silence-601s.wav'), [
    '-af',
    'volume=0,apad=whole_dur=601',
    ...WAV_16K_MONO,
  ]);
  convert('jfk.flac', join(FIXTURE_ROOT, 'audio/jfk-x4.wav'), ['-af', 'aloop=loop=3:size=485100', ...WAV_16K_MONO]);
});

test("wav, flac, mp3, ogg/opus and webm/opus decode to 16 kHz mono; the duration is the file's", async ({ page }) => {
  const errors = await openHarness(page);
  const files = ['jfk-16k.wav', 'jfk.flac', 'librispeech.mp3', 'jfk.ogg', 'jfk.webm'];
  const answers = await post(
    page,
    files.map((name) => ({ audio: audio(name), fields: { language: 'hi', response_format: 'verbose_json' } })),
  );
  expect(errors).toEqual([]);
  const durations = answers.map((answer, i) => {
    expect(answer.status, `${files[i]}: ${answer.body}`).toBe(200);
    return JSON.parse(answer.body).duration as number;
  });
  expect(durations[0]).toBeCloseTo(11, 1);
  for (const i of [1, 3, 4]) expect(Math.abs(durations[i]! - durations[0]!)).toBeLessThan(0.03);
  expect(durations[2]).toBeGreaterThan(5);
});

test('bad input is a clear 4xx that loses nothing: undecodable bytes, unknown language, too long; then the next request works', async ({
  page,
}) => {
  await openHarness(page);
  const [garbage, language, tooLong, next] = await post(page, [
    { audio: 'notes.wav', bytes: 'this is not audio at all', fields: {} },
    { audio: audio('jfk-16k.wav'), fields: { language: 'xx' } },
    { audio: audio('silence-601s.wav'), fields: {} },
    { audio: audio('jfk-16k.wav'), fields: { language: 'hi' } },
  ]);
  expect(garbage!.status).toBe(400);
  expect(JSON.parse(garbage!.body).error).toMatchObject({
    type: 'invalid_request_error',
    param: 'file',
    code: 'invalid_audio',
  });
  expect(language!.status).toBe(400);
  expect(JSON.parse(language!.body).error).toMatchObject({ param: 'language', code: 'unsupported_value' });
  expect(tooLong!.status).toBe(413);
  expect(JSON.parse(tooLong!.body).error).toMatchObject({ param: 'file', code: 'audio_too_long' });
  expect(next!.status, next!.body).toBe(200);
});

test('language detection, srt and vtt, and /v1/models listing the languages', async ({ page }) => {
  await openHarness(page);
  const [detected, srt, vtt] = await post(page, [
    { audio: audio('jfk-16k.wav'), fields: { response_format: 'verbose_json' } },
    { audio: audio('jfk-16k.wav'), fields: { response_format: 'srt', language: 'hi' } },
    { audio: audio('jfk-16k.wav'), fields: { response_format: 'vtt', language: 'hi' } },
  ]);
  expect(detected!.status, detected!.body).toBe(200);
  const transcript = JSON.parse(detected!.body);
  const code = WHISPER_LANGUAGES.find(([, name]) => name === transcript.language)?.[0];
  expect(code).toBeDefined();
  const [given] = await post(page, [
    { audio: audio('jfk-16k.wav'), fields: { response_format: 'verbose_json', language: code! } },
  ]);
  expect(JSON.parse(given!.body).text).toBe(transcript.text);

  expect(srt!.type).toContain('application/x-subrip');
  expect(srt!.body).toMatch(/^1\r?\n\d\d:\d\d:\d\d,\d\d\d --> \d\d:\d\d:\d\d,\d\d\d\r?\n/);
  expect(vtt!.type).toContain('text/vtt');
  expect(vtt!.body).toMatch(/^WEBVTT\r?\n\r?\n(\d+\r?\n)?\d\d:\d\d:\d\d\.\d\d\d --> \d\d:\d\d:\d\d\.\d\d\d/);

  const models = await page.evaluate(async () => {
    const ai = window.Vaani.createVaani();
    const response = await ai.fetch('/v1/models/speech-stt-v1', { headers: { authorization: 'Bearer k' } });
    return response.json();
  });
  expect(models.languages).toEqual(
    expect.arrayContaining(['hi', 'bn', 'ta', 'te', 'mr', 'gu', 'kn', 'ml', 'pa', 'ur', 'en']),
  );
});

test('audio longer than 30 s runs in overlapping windows merged by timestamps', async ({ page }) => {
  await openHarness(page);
  const [answer] = await post(page, [
    { audio: audio('jfk-x4.wav'), fields: { language: 'hi', response_format: 'verbose_json' } },
  ]);
  expect(answer!.status, answer!.body).toBe(200);
  const transcript = JSON.parse(answer!.body);
  expect(transcript.duration).toBeCloseTo(44, 0);
  for (const segment of transcript.segments) {
    expect(segment.start).toBeLessThan(transcript.duration);
    expect(segment.start).toBeGreaterThanOrEqual(segment.seek / 100);
  }
  expect(transcript.segments.map((s: { id: number }) => s.id)).toEqual(
    transcript.segments.map((_: unknown, i: number) => i),
  );
});
