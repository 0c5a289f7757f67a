import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { resample } from '../../src/common/audio/resample';
import { findVoice } from '../../src/catalogue/voices';
import { audioOf, errorOf, loadClip, post, SHARED_AUDIO, startVaani, wavBase64, whiteNoise } from './support/audio-mix';
import { formantScaleBetween } from './support/audio-formants';
import { openHarness } from './support/page';
import { pitchStats } from './support/pitch';

const clipBase64 = (name: string) => readFileSync(`${SHARED_AUDIO}/${name}`).toString('base64');

/** Loudness envelope (dB) of 20 ms windows every millisecond. */
function loudness(samples: Float32Array, sampleRate: number): number[] {
  const size = Math.round(sampleRate * 0.02);
  const hop = sampleRate / 1000;
  const out: number[] = [];
  for (let start = 0; start + size <= samples.length; start = Math.round(out.length * hop)) {
    let sum = 0;
    for (let i = start; i < start + size; i++) sum += samples[i]! * samples[i]!;
    out.push(10 * Math.log10(sum / size + 1e-10));
  }
  return out;
}

/** The shift (ms) of `output`'s loudness envelope against `input`'s with the best correlation, within ±60 ms. */
function timingShiftMs(input: Float32Array, output: Float32Array, sampleRate: number): number {
  const a = loudness(input, sampleRate);
  const b = loudness(output, sampleRate);
  let best = 0;
  let bestScore = -Infinity;
  for (let lag = -60; lag <= 60; lag++) {
    let score = 0;
    for (let i = 60; i < a.length - 60; i++) score += a[i]! * (b[i + lag] ?? 0);
    if (score > bestScore) {
      bestScore = score;
      best = lag;
    }
  }
  return best;
}

test('bad requests get 4xx errors in the OpenAI shape, and the next request still works', async ({ page }) => {
  await openHarness(page);
  await startVaani(page);
  const file = wavBase64(
    whiteNoise(16000).map((v) => v * 0.1),
    16000,
  );

  const noVoice = await post(page, '/v1/audio/voice-changer', { file });
  expect(noVoice.status).toBe(400);
  expect(errorOf(noVoice).error).toMatchObject({ param: 'voice', code: 'missing_required_parameter' });

  const unknown = await post(page, '/v1/audio/voice-changer', { file, fields: { voice: 'xx-XX-nobody-9' } });
  expect(unknown.status).toBe(404);
  expect(errorOf(unknown).error).toMatchObject({ param: 'voice', code: 'voice_not_found', type: 'not_found_error' });

  const missing = await post(page, '/v1/audio/voice-changer', { file: null, fields: { voice: 'hi-IN-female-1' } });
  expect(missing.status).toBe(400);
  expect(errorOf(missing).error.param).toBe('file');

  const empty = await post(page, '/v1/audio/voice-changer', { file: '', fields: { voice: 'hi-IN-female-1' } });
  expect(empty.status).toBe(400);
  expect(errorOf(empty).error.param).toBe('file');

  const notAudio = await post(page, '/v1/audio/voice-changer', {
    file: Buffer.from('%PDF-1.4 definitely not audio').toString('base64'),
    fields: { voice: 'hi-IN-female-1' },
  });
  expect(notAudio.status).toBe(400);
  expect(errorOf(notAudio).error).toMatchObject({ param: 'file', code: 'invalid_audio' });

  const unknownModel = await post(page, '/v1/audio/voice-changer', {
    file,
    fields: { voice: 'hi-IN-female-1', model: 'speech-v9' },
  });
  expect(unknownModel.status).toBe(404);
  expect(errorOf(unknownModel).error.param).toBe('model');

  const ok = audioOf(await post(page, '/v1/audio/voice-changer', { file, fields: { voice: 'hi-IN-female-1' } }));
  expect([ok.sampleRate, ok.samples.length]).toEqual([16000, 16000]);
  const withTtsModel = audioOf(
    await post(page, '/v1/audio/voice-changer', { file, fields: { voice: 'hi-IN-female-1', model: 'speech-tts-v1' } }),
  );
  expect(withTtsModel.samples.length).toBe(16000);
});

const cases = [
  { clip: 'jfk.flac', voice: 'hi-IN-female-1' },
  { clip: 'jfk.flac', voice: 'en-US-male-1' },
  { clip: '1272-141231-0002.mp3', voice: 'ta-IN-female-1' },
  { clip: '1272-141231-0002.mp3', voice: 'bn-IN-male-1' },
];

for (const { clip, voice } of cases) {
  test(`${clip} → ${voice}: same duration, timing within 15 ms, F0 at the voice's median, formants × its formant scale`, async ({
    page,
  }) => {
    const target = findVoice(voice)!;
    const input = await loadClip(clip);
    await openHarness(page);
    await startVaani(page);
    const out = audioOf(
      await post(page, '/v1/audio/voice-changer', { file: clipBase64(clip), filename: clip, fields: { voice } }),
    );
    expect(out.sampleRate).toBe(input.sampleRate);
    expect(Math.abs(out.samples.length - input.samples.length) / input.sampleRate).toBeLessThanOrEqual(0.01);
    const shift = timingShiftMs(input.samples, out.samples, input.sampleRate);

    const source = pitchStats(input.samples, input.sampleRate).median;
    const median = pitchStats(out.samples, out.sampleRate).median;
    const formants = formantScaleBetween(
      await resample(input.samples, input.sampleRate, 16000),
      await resample(out.samples, out.sampleRate, 16000),
      16000,
    );
    console.log(
      `${clip} (F0 ${source.toFixed(1)} Hz) → ${voice}: F0 ${median.toFixed(1)} Hz (target ${target.medianF0}), formants × ${formants.toFixed(3)} (target ${target.formantScale}), timing shift ${shift} ms`,
    );
    expect(Math.abs(median / target.medianF0 - 1)).toBeLessThan(0.1);
    expect(Math.abs(formants / target.formantScale - 1)).toBeLessThan(0.05);
    expect(Math.abs(shift)).toBeLessThanOrEqual(15);
  });
}

test('an aborted conversion rejects with AbortError, and the next request still works', async ({ page }) => {
  await openHarness(page);
  await startVaani(page);
  const outcome = await page.evaluate(async (file) => {
    const vaani = (window as unknown as { vaani: { fetch: typeof fetch } }).vaani;
    const form = new FormData();
    form.append('file', new Blob([Uint8Array.from(atob(file), (c) => c.charCodeAt(0))]), 'jfk.flac');
    form.append('voice', 'hi-IN-female-1');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    try {
      const response = await vaani.fetch('/v1/audio/voice-changer', {
        method: 'POST',
        body: form,
        signal: controller.signal,
      });
      return `answered ${response.status}`;
    } catch (error) {
      return (error as Error).name;
    }
  }, clipBase64('jfk.flac'));
  expect(outcome).toBe('AbortError');
  const next = audioOf(
    await post(page, '/v1/audio/voice-changer', {
      file: clipBase64('1272-141231-0002.mp3'),
      fields: { voice: 'en-IN-male-1' },
    }),
  );
  expect(next.sampleRate).toBe(16000);
});
