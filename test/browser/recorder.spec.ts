import { expect, test } from '@playwright/test';
import { correlation, db, envelope, JFK, microphone, speechBounds } from '../fixtures/whisper/microphone';
import { wavSamples } from '../fixtures/whisper/reference';
import { openHarness } from './support/page';

test.use(microphone(JFK.mic));

test('records the fake microphone at 16 kHz mono: duration and loudness match the source, pause holds, level events flow', async ({
  page,
}) => {
  const source = envelope(await wavSamples(JFK.reference));
  const errors = await openHarness(page);
  const result = await page.evaluate(async () => {
    const ai = window.Vaani.createVaani();
    const recorder = ai.recorder();
    let levels = 0;
    recorder.addEventListener('level', () => levels++);
    await recorder.start();
    await new Promise((resolve) => setTimeout(resolve, 16_000));
    recorder.pause();
    const pausedAt = levels;
    await new Promise((resolve) => setTimeout(resolve, 500));
    const levelsWhilePaused = levels - pausedAt;
    recorder.resume();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const recording = await recorder.stop();
    const head = new Uint8Array(await recording.file.slice(0, 44).arrayBuffer());
    return {
      samples: Array.from(recording.samples),
      sampleRate: recording.sampleRate,
      duration: recording.duration,
      fileSize: recording.file.size,
      fileType: recording.file.type,
      riff: String.fromCharCode(...head.slice(0, 4)),
      wavRate: new DataView(head.buffer).getUint32(24, true),
      channels: new DataView(head.buffer).getUint16(22, true),
      levels,
      levelsWhilePaused,
    };
  });
  expect(errors).toEqual([]);
  expect(result.sampleRate).toBe(16000);
  expect([result.riff, result.wavRate, result.channels, result.fileType]).toEqual(['RIFF', 16000, 1, 'audio/wav']);
  expect(result.fileSize).toBe(44 + result.samples.length * 2);
  expect(result.levels).toBeGreaterThan(200);
  expect(result.levelsWhilePaused).toBe(0);

  const captured = envelope(result.samples);
  const [sourceStart, sourceEnd] = speechBounds(source);
  const [capturedStart, capturedEnd] = speechBounds(captured);
  // Within 100 ms of the 11 s source (a wrong sample rate is off by seconds): at load 8, Chromium's
  // fake capture device dropped or repeated 70 ms of buffers.
  expect(Math.abs(capturedEnd - capturedStart - (sourceEnd - sourceStart))).toBeLessThanOrEqual(0.1);
  const onsetLag = Math.round((capturedStart - sourceStart) * 100);
  const aligned = (lag: number) => correlation(captured.slice(Math.max(0, lag)), source.slice(Math.max(0, -lag)));
  const best = Math.max(...Array.from({ length: 21 }, (_, i) => aligned(onsetLag + i - 10)));
  expect(best).toBeGreaterThan(0.95);
  const rms = (env: number[], from: number, to: number) =>
    Math.sqrt(env.slice(from * 100, to * 100).reduce((s, v) => s + v * v, 0) / ((to - from) * 100));
  expect(Math.abs(db(rms(captured, capturedStart, capturedEnd) / rms(source, sourceStart, sourceEnd)))).toBeLessThan(1);
});
