import { expect, test } from '@playwright/test';
import { JFK, microphone } from '../fixtures/whisper/microphone';
import { openHarness } from './support/page';

// JFK's 11 s has a pause of about 1.0 s after "my fellow Americans": the defaults must keep the whole talk.
test.use(microphone(JFK.mic));

test('VAD defaults keep a talk with natural pauses: the whole 11 s, not its first phrase', async ({ page }) => {
  const errors = await openHarness(page);
  const result = await page.evaluate(async () => {
    const ai = window.Vaani.createVaani({ backend: 'wasm' });
    const recorder = ai.recorder({ vad: true });
    const stopped = new Promise<import('../../src/index').Recording>((resolve) =>
      recorder.addEventListener('stop', (event) => resolve((event as CustomEvent).detail)),
    );
    await recorder.start();
    const recording = await Promise.race([
      stopped,
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no auto-stop')), 30_000)),
    ]);
    ai.dispose();
    return { duration: recording.duration, speech: recording.speech, recorded: recording.recordedDuration };
  });
  expect(errors).toEqual([]);
  const detail = JSON.stringify(result);
  // Speech from about 1 s (the padding before the clip) to about 12 s (its end), then the stop.
  expect(result.speech!.start, detail).toBeLessThan(1.5);
  expect(result.speech!.end, detail).toBeGreaterThan(10.5);
  expect(result.duration, detail).toBeGreaterThan(9.5);
});
