import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { convert, WAV_16K_MONO } from '../fixtures/whisper/audio';
import { ensureTinyWhisper, FIXTURE_ROOT, FIXTURE_URL } from '../fixtures/whisper/ensure';
import { microphone } from '../fixtures/whisper/microphone';
import { openHarness } from './support/page';

/** A quiet room with nobody speaking: 4 s of pink noise at about −50 dBFS, 48 kHz for the fake microphone. */
function roomNoise(): string {
  const file = join(FIXTURE_ROOT, 'audio/room-noise-48k.wav');
  if (!existsSync(file)) {
    mkdirSync(join(file, '..'), { recursive: true });
    const noise = 'anoisesrc=color=pink:amplitude=0.003:duration=4:seed=7';
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', noise, '-ar', '48000', '-ac', '1', file]);
  }
  return file;
}

test.use(microphone(roomNoise()));
test.beforeAll(async () => {
  await ensureTinyWhisper();
  convert('jfk.flac', join(FIXTURE_ROOT, 'audio/jfk-16k.wav'), WAV_16K_MONO);
});

test('no speech heard: the recorder stops after noSpeechMs with speech: null; the empty file is a 400 audio_too_short through the openai SDK, and the next request works', async ({
  page,
}) => {
  const errors = await openHarness(page);
  const result = await page.evaluate(
    async ({ model, clip }) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: { 'speech-stt-v1': { baseURL: model, dtype: 'fp32', indic: false } },
      });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
      });
      const recorder = ai.recorder({ vad: { noSpeechMs: 1500 } });
      const events: string[] = [];
      for (const type of ['speechstart', 'speechend', 'nospeech'])
        recorder.addEventListener(type, () => events.push(type));
      const stopped = new Promise<import('../../src/index').Recording>((resolve) =>
        recorder.addEventListener('stop', (event) => resolve((event as CustomEvent).detail)),
      );
      await recorder.start();
      const recording = await Promise.race([
        stopped,
        new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no stop without speech')), 20_000)),
      ]);
      const refused = await client.audio.transcriptions.create({ model: 'speech-stt-v1', file: recording.file }).then(
        () => null,
        (error: { status?: number; code?: string; param?: string; message?: string }) => ({
          status: error.status,
          code: error.code,
          param: error.param,
          message: error.message,
        }),
      );
      const bytes = await (await fetch(clip)).blob();
      const next = await client.audio.transcriptions.create({
        model: 'speech-stt-v1',
        language: 'en',
        file: new File([bytes], 'jfk.wav', { type: 'audio/wav' }),
      });
      // Without VAD nothing is judged: `speech` is absent, not null.
      const plain = ai.recorder();
      await plain.start();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const unjudged = await plain.stop();
      ai.dispose();
      return {
        speech: recording.speech,
        duration: recording.duration,
        recordedDuration: recording.recordedDuration,
        size: recording.file.size,
        events,
        refused,
        next: next.text,
        plain: { hasSpeech: 'speech' in unjudged, duration: unjudged.duration },
      };
    },
    { model: `${FIXTURE_URL}tiny/`, clip: `${FIXTURE_URL}audio/jfk-16k.wav` },
  );
  expect(errors).toEqual([]);
  const detail = JSON.stringify(result);
  expect(result.speech, detail).toBeNull();
  expect(result.events, detail).toEqual(['nospeech']);
  expect(result.duration).toBe(0);
  expect(result.size).toBe(44);
  // Stopped by itself once VAD had read 1.5 s without speech (well before the 20 s guard): what it records
  // meanwhile is the VAD's lag behind the microphone (its model loads while the first blocks queue), about
  // a second alone, several seconds beside other specs.
  expect(result.recordedDuration, detail).toBeGreaterThanOrEqual(1.5);
  expect(result.recordedDuration, detail).toBeLessThan(15);
  expect(result.refused, detail).toMatchObject({ status: 400, code: 'audio_too_short', param: 'file' });
  expect(result.refused!.message).toMatch(/no audio samples.*0\.1 seconds/);
  expect(result.next.length).toBeGreaterThan(0);
  expect(result.plain).toEqual({ hasSpeech: false, duration: expect.any(Number) });
  expect(result.plain.duration).toBeGreaterThan(0.1);
});
