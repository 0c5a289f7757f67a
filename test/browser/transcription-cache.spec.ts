import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { convert, WAV_16K_MONO } from '../fixtures/whisper/audio';
import { ensureTinyWhisper, FIXTURE_ROOT, FIXTURE_URL } from '../fixtures/whisper/ensure';
import { FileServer } from './support/file-server';
import { openHarness } from './support/page';

const JFK_WAV = 'audio/jfk-16k.wav';

test.beforeAll(async () => {
  await ensureTinyWhisper();
  convert('jfk.flac', join(FIXTURE_ROOT, JFK_WAV), WAV_16K_MONO);
});

test('a Whisper model loaded by its first request is in the weight store, and answers again from it', async ({
  page,
}) => {
  await openHarness(page);
  const result = await page.evaluate(
    async ({ model, audio }) => {
      const transcribe = async (ai: ReturnType<typeof window.Vaani.createVaani>) => {
        const form = new FormData();
        form.set('file', new File([await (await fetch(audio)).blob()], 'jfk.wav'));
        form.set('model', 'speech-stt-v1');
        const response = await ai.fetch('/v1/audio/transcriptions', {
          method: 'POST',
          headers: { authorization: 'Bearer k' },
          body: form,
        });
        return { status: response.status, text: (await response.json()).text as string };
      };
      const options = {
        backend: 'wasm' as const,
        models: { 'speech-stt-v1': { baseURL: model, dtype: 'fp32', indic: false } },
      };
      const first = window.Vaani.createVaani(options);
      const cold = await transcribe(first);
      const cached = await first.models.cached();
      first.dispose();

      const second = window.Vaani.createVaani(options);
      const warm = await transcribe(second);
      second.dispose();
      return { cold, warm, cached: cached.map((entry) => ({ id: entry.id, bytes: entry.bytes })) };
    },
    { model: `${FIXTURE_URL}tiny/`, audio: `${FIXTURE_URL}${JFK_WAV}` },
  );
  expect(result.cold.status).toBe(200);
  expect(result.warm).toEqual(result.cold);
  expect(result.cached).toEqual([{ id: 'speech-stt-v1', bytes: expect.any(Number) }]);
  expect(result.cached[0]!.bytes).toBeGreaterThan(10_000);
});

test('ai.models.load fetches the files the Whisper engine lists; the transcription then downloads nothing', async ({
  page,
}) => {
  const files = new FileServer();
  const dir = join(FIXTURE_ROOT, 'tiny');
  for (const name of await readdir(dir, { recursive: true })) {
    if (name.endsWith('.json') || name.endsWith('.onnx'))
      files.put(`/whisper/${name}`, new Uint8Array(await readFile(join(dir, name))));
  }
  await files.start();
  await openHarness(page);
  const result = await page.evaluate(
    async ({ base, audio }) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: { 'speech-stt-v1': { baseURL: base, dtype: 'fp32', indic: false } },
      });
      let last = 0;
      const status = await ai.models.load('speech-stt-v1', {
        onProgress: (progress) => (last = progress.fraction ?? 0),
      });
      const loaded = { state: status.state, files: status.files.map((file) => file.file).sort(), last };
      const form = new FormData();
      form.set('file', new File([await (await fetch(audio)).blob()], 'jfk.wav'));
      form.set('model', 'speech-stt-v1');
      const response = await ai.fetch('/v1/audio/transcriptions', {
        method: 'POST',
        headers: { authorization: 'Bearer k' },
        body: form,
      });
      await response.json();
      ai.dispose();
      return { loaded, status: response.status };
    },
    { base: `${files.url}whisper/`, audio: `${FIXTURE_URL}${JFK_WAV}` },
  );
  // Besides the files, only the folder's vaani-manifest.json is asked for (this folder has none: a 404, then probing as before).
  const gets = files.log
    .filter((entry) => entry.method === 'GET' && !entry.path.endsWith('/vaani-manifest.json'))
    .map((entry) => entry.path);
  await files.stop();
  expect(result.loaded).toEqual({
    state: 'cached',
    files: [
      'config.json',
      'generation_config.json',
      'onnx/decoder_model_merged.onnx',
      'onnx/encoder_model.onnx',
      'preprocessor_config.json',
      'tokenizer.json',
      'tokenizer_config.json',
    ],
    last: 1,
  });
  expect(result.status).toBe(200);
  expect(gets.sort()).toEqual(result.loaded.files.map((file) => `/whisper/${file}`));
});
