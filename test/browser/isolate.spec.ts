import { expect, test } from '@playwright/test';
import { decodeAudio } from '../../src/common/audio/decode';
import {
  add,
  audioOf,
  db,
  encodeClip,
  ENCODINGS,
  errorOf,
  loadClip,
  pinkNoise,
  post,
  power,
  scaleNoise,
  snr,
  startVaani,
  wavBase64,
  whiteNoise,
} from './support/audio-mix';
import { openHarness } from './support/page';

/** jfk.flac (44.1 kHz, mixed to mono) followed by two seconds with no speech: the noise-only stretch. */
async function speechWithQuietTail() {
  const { samples, sampleRate } = await loadClip('jfk.flac');
  const clean = new Float32Array(samples.length + 2 * sampleRate);
  clean.set(samples);
  return { clean, speechLength: samples.length, sampleRate };
}

test('bad uploads (none, empty, not audio, no samples, wrong model, over 25 MiB) get 4xx errors in the OpenAI shape, and the next request still works', async ({
  page,
}) => {
  await openHarness(page);
  await startVaani(page);
  const missing = await post(page, '/v1/audio/isolate', { file: null });
  expect(missing.status).toBe(400);
  expect(errorOf(missing).error).toMatchObject({
    param: 'file',
    code: 'missing_required_parameter',
    type: 'invalid_request_error',
  });

  const empty = await post(page, '/v1/audio/isolate', { file: '' });
  expect(empty.status).toBe(400);
  expect(errorOf(empty).error).toMatchObject({ param: 'file', type: 'invalid_request_error' });

  const text = await post(page, '/v1/audio/isolate', {
    file: Buffer.from('just some text, not audio at all').toString('base64'),
    filename: 'notes.wav',
  });
  expect(text.status).toBe(400);
  expect(errorOf(text).error).toMatchObject({ param: 'file', code: 'invalid_audio', type: 'invalid_request_error' });

  const headerOnly = await post(page, '/v1/audio/isolate', {
    file: Buffer.from('RIFF\0\0\0\0WAVEfmt garbage').toString('base64'),
  });
  expect(headerOnly.status).toBe(400);
  expect(errorOf(headerOnly).error.code).toBe('invalid_audio');

  const otherProduct = await post(page, '/v1/audio/isolate', {
    file: wavBase64(whiteNoise(1600), 16000),
    fields: { model: 'chat-v2' },
  });
  expect(otherProduct.status).toBe(400);
  expect(errorOf(otherProduct).error.param).toBe('model');

  const tooLarge = await page.evaluate(async () => {
    const vaani = (window as unknown as { vaani: { fetch: typeof fetch } }).vaani;
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(26 * 1024 * 1024)]), 'huge.wav');
    const response = await vaani.fetch('/v1/audio/isolate', { method: 'POST', body: form });
    return { status: response.status, body: await response.json() };
  });
  expect(tooLarge.status).toBe(413);
  expect(tooLarge.body.error.type).toBe('invalid_request_error');

  const ok = audioOf(
    await post(page, '/v1/audio/isolate', {
      file: wavBase64(
        whiteNoise(16000).map((v) => v * 0.1),
        16000,
      ),
    }),
  );
  expect([ok.sampleRate, ok.samples.length, ok.channels]).toEqual([16000, 16000, 1]);
});

for (const [kind, noise, floor] of [
  ['white', whiteNoise, 13],
  ['pink', pinkNoise, 11],
] as const) {
  test(`RNNoise lifts jfk.flac in ${kind} noise from 5 dB SNR to at least ${floor} dB, and the noise-only stretch drops by 30 dB`, async ({
    page,
  }) => {
    const { clean, speechLength, sampleRate } = await speechWithQuietTail();
    const scaled = scaleNoise(clean.subarray(0, speechLength), noise(clean.length), 5);
    const noisy = add(clean, scaled);
    expect(snr(clean.subarray(0, speechLength), noisy.subarray(0, speechLength))).toBeCloseTo(5, 1);

    await openHarness(page);
    await startVaani(page);
    const out = audioOf(
      await post(page, '/v1/audio/isolate', { file: wavBase64(noisy, sampleRate), filename: 'noisy.wav' }),
    );
    expect(out.sampleRate).toBe(sampleRate);
    expect(out.samples.length).toBe(noisy.length);

    const speechSnr = snr(clean.subarray(0, speechLength), out.samples.subarray(0, speechLength));
    const tail = (x: Float32Array) => x.subarray(speechLength + sampleRate / 4);
    const tailDrop = db(power(tail(noisy)) / power(tail(out.samples)));
    console.log(`${kind}: output SNR ${speechSnr.toFixed(2)} dB, noise-only stretch down ${tailDrop.toFixed(1)} dB`);
    expect(speechSnr).toBeGreaterThanOrEqual(floor);
    expect(tailDrop).toBeGreaterThanOrEqual(30);
  });
}

test('uploads in ogg vorbis, ogg opus, webm opus and m4a are decoded in the worker; output keeps rate and length', async ({
  page,
}) => {
  await openHarness(page);
  await startVaani(page);
  const clip = '1272-141231-0002.mp3';
  const seconds = (await loadClip(clip)).samples.length / 16000;
  for (const encoding of Object.keys(ENCODINGS) as (keyof typeof ENCODINGS)[]) {
    const bytes = encodeClip(clip, encoding);
    const out = audioOf(
      await post(page, '/v1/audio/isolate', {
        file: Buffer.from(bytes).toString('base64'),
        filename: `speech.${ENCODINGS[encoding].extension}`,
      }),
    );
    const decoded = await decodeAudio(bytes);
    expect(out.sampleRate, encoding).toBe(decoded.sampleRate);
    expect(out.samples.length, encoding).toBe(decoded.channels[0]!.length);
    expect(Math.abs(out.samples.length / out.sampleRate - seconds), encoding).toBeLessThan(0.05);
  }
});
