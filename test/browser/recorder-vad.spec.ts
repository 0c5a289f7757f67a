import { expect, test } from '@playwright/test';
import { envelope, LIBRISPEECH, microphone, speechBounds } from '../fixtures/whisper/microphone';
import { openHarness } from './support/page';

test.use(microphone(LIBRISPEECH.mic));

test('with Silero VAD: trims to the speech (boundaries within 100 ms) and stops by itself after the silence', async ({ page }) => {
  const errors = await openHarness(page);
  const result = await page.evaluate(async () => {
    const ai = window.Vaani.createVaani();
    const recorder = ai.recorder({ vad: { silenceMs: 2000, padMs: 200 } });
    const events: string[] = [];
    for (const type of ['speechstart', 'speechend']) recorder.addEventListener(type, () => events.push(type));
    const stopped = new Promise<import('../../src/index').Recording>((resolve) => recorder.addEventListener('stop', (event) => resolve((event as CustomEvent).detail)));
    const started = performance.now();
    await recorder.start();
    const recording = await Promise.race([stopped, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no auto-stop')), 30_000))]);
    return { samples: Array.from(recording.samples), speech: recording.speech, recordedDuration: recording.recordedDuration, events, elapsed: (performance.now() - started) / 1000 };
  });
  expect(errors).toEqual([]);
  expect(result.events[0]).toBe('speechstart');
  expect(result.events).toContain('speechend');
  expect(result.speech).toBeDefined();
  expect(Math.abs(result.recordedDuration - result.speech!.end - 2)).toBeLessThan(0.3);
  const samples = result.samples as number[];
  const [start, end] = speechBounds(envelope(samples));
  const duration = samples.length / 16000;
  const detail = JSON.stringify({ start, end, duration, speech: result.speech, recorded: result.recordedDuration, elapsed: result.elapsed });
  expect(Math.abs(start - 0.2), detail).toBeLessThanOrEqual(0.1);
  expect(Math.abs(duration - end - 0.2), detail).toBeLessThanOrEqual(0.1);
});
