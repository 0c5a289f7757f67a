import { expect, test } from '@playwright/test';
import { ensureTinyWhisper, FIXTURE_URL } from '../fixtures/whisper/ensure';
import { envelope, LIBRISPEECH, microphone, speechBounds } from '../fixtures/whisper/microphone';
import { cpuHog } from './support/hog';
import { openHarness } from './support/page';

test.use(microphone(LIBRISPEECH.mic));
test.beforeAll(() => ensureTinyWhisper());
const hog = cpuHog();

test('with Silero VAD: trims to the speech (boundaries within 100 ms), stops by itself after the silence; its file transcribes', async ({
  page,
}) => {
  const errors = await openHarness(page);
  hog.start();
  const result = await page.evaluate(async (model) => {
    const ai = window.Vaani.createVaani({
      backend: 'wasm',
      models: { 'speech-stt-v1': { baseURL: model, dtype: 'fp32', indic: false } },
    });
    const recorder = ai.recorder({ vad: { silenceMs: 2000, padMs: 200 } });
    const events: string[] = [];
    const times: Record<string, number> = {};
    for (const type of ['speechstart', 'speechend'])
      recorder.addEventListener(type, (event) => {
        events.push(type);
        times[type] = (event as CustomEvent<import('../../src/index').SpeechEventDetail>).detail.time;
      });
    const stopped = new Promise<import('../../src/index').Recording>((resolve) =>
      recorder.addEventListener('stop', (event) => resolve((event as CustomEvent).detail)),
    );
    const started = performance.now();
    await recorder.start();
    const recording = await Promise.race([
      stopped,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no auto-stop')), 30_000)),
    ]);
    const elapsed = (performance.now() - started) / 1000;
    const form = new FormData();
    form.set('file', recording.file);
    form.set('model', 'speech-stt-v1');
    form.set('response_format', 'verbose_json');
    form.set('language', 'hi');
    const response = await ai.fetch('/v1/audio/transcriptions', {
      method: 'POST',
      headers: { authorization: 'Bearer k' },
      body: form,
    });
    const transcription = { status: response.status, body: await response.text() };
    ai.dispose();
    return {
      samples: Array.from(recording.samples),
      duration: recording.duration,
      speech: recording.speech,
      recordedDuration: recording.recordedDuration,
      events,
      times,
      elapsed,
      transcription,
    };
  }, `${FIXTURE_URL}tiny/`);
  expect(errors).toEqual([]);
  expect(result.events[0]).toBe('speechstart');
  expect(result.events).toContain('speechend');
  expect(result.speech).toBeDefined();
  // The events and the cut are on the sample clock: the stop comes 2 s (silenceMs) of samples after the
  // speech, however far the VAD ran behind with the hog on both cores.
  expect(result.times).toEqual({ speechstart: result.speech!.start, speechend: result.speech!.end });
  expect(Math.abs(result.recordedDuration - result.speech!.end - 2)).toBeLessThanOrEqual(0.1);
  const samples = result.samples as number[];
  const [start, end] = speechBounds(envelope(samples));
  const duration = samples.length / 16000;
  const detail = JSON.stringify({
    start,
    end,
    duration,
    speech: result.speech,
    recorded: result.recordedDuration,
    elapsed: result.elapsed,
  });
  expect(Math.abs(start - 0.2), detail).toBeLessThanOrEqual(0.1);
  expect(Math.abs(duration - end - 0.2), detail).toBeLessThanOrEqual(0.1);
  test.info().annotations.push({ type: 'vad', description: detail });
  expect(result.transcription.status, result.transcription.body).toBe(200);
  expect(JSON.parse(result.transcription.body).duration).toBeCloseTo(result.duration, 3);
});

test('a pause (pauseMs) offers the speech so far; end() there stops the recording as the full silence would', async ({
  page,
}) => {
  const errors = await openHarness(page);
  hog.start();
  const result = await page.evaluate(async () => {
    const ai = window.Vaani.createVaani({ backend: 'wasm' });
    // A silence far longer than the clip's trailing one: only an end() at a pause can stop it.
    const recorder = ai.recorder({ vad: { silenceMs: 60_000, pauseMs: 300, padMs: 200 } });
    const events: string[] = [];
    const pauses: { time: number; samples: number[]; ended?: boolean }[] = [];
    recorder.addEventListener('speechstart', () => events.push('speechstart'));
    recorder.addEventListener('speechend', () => events.push('speechend'));
    recorder.addEventListener('pause', (event) => {
      const detail = (event as CustomEvent<import('../../src/index').SpeechPauseDetail>).detail;
      events.push('pause');
      const pause: (typeof pauses)[number] = { time: detail.time, samples: Array.from(detail.recording.samples) };
      pauses.push(pause);
      // Ends at the first pause it can: one followed by speech the VAD had not judged yet refuses.
      void detail.end().then(async (ended) => {
        pause.ended = ended;
        if (ended) pause.ended = !(await detail.end());
      });
    });
    const stopped = new Promise<import('../../src/index').Recording>((resolve) =>
      recorder.addEventListener('stop', (event) => {
        events.push('stop');
        resolve((event as CustomEvent).detail);
      }),
    );
    await recorder.start();
    const recording = await Promise.race([
      stopped,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no stop at a pause')), 60_000)),
    ]);
    ai.dispose();
    return {
      samples: Array.from(recording.samples),
      speech: recording.speech,
      recordedDuration: recording.recordedDuration,
      events,
      pauses,
    };
  });
  expect(errors).toEqual([]);
  const ended = result.pauses.filter((pause) => pause.ended);
  // One pause ended it (and a second end() there changed nothing); the pauses before it had speech after them.
  expect(ended, JSON.stringify(result.events)).toHaveLength(1);
  expect(result.pauses.at(-1)).toBe(ended[0]);
  expect(result.events.slice(-3)).toEqual(['pause', 'speechend', 'stop']);
  // The pause's recording is the recording: the same speech, trimmed the same way.
  expect(result.speech!.end).toBe(ended[0]!.time);
  expect(result.samples).toEqual(ended[0]!.samples);
});
