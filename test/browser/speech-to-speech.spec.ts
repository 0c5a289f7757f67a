import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { findVoice } from '../../src/catalogue/voices';
import { audioOf, errorOf, post, SHARED_AUDIO, startVaani, wavBase64, whiteNoise } from './support/audio-mix';
import { openHarness } from './support/page';
import { pitchStats, pitchTrack } from './support/pitch';

const CLIP = '1272-141231-0002.mp3';
const VOICE = 'hi-IN-female-1';
const clip = readFileSync(`${SHARED_AUDIO}/${CLIP}`).toString('base64');

/** RMS (semitones) of F0 around its own 110 ms moving median: the fast pitch variation. */
function fastVariation(samples: Float32Array, sampleRate: number): number {
  const semitones = pitchTrack(samples, sampleRate).map((f0) => 12 * Math.log2(f0));
  const squares: number[] = [];
  semitones.forEach((value, i) => {
    if (!Number.isFinite(value)) return;
    const window = semitones
      .slice(Math.max(0, i - 5), i + 6)
      .filter(Number.isFinite)
      .sort((a, b) => a - b);
    if (window.length < 5) return;
    const deviation = value - window[window.length >> 1]!;
    if (Math.abs(deviation) < 6) squares.push(deviation * deviation);
  });
  return Math.sqrt(squares.reduce((a, b) => a + b, 0) / squares.length);
}

const convert = async (page: Page, fields: Record<string, string>) =>
  audioOf(
    await post(page, '/v1/audio/speech-to-speech', { file: clip, filename: CLIP, fields: { voice: VOICE, ...fields } }),
  );

test('bad requests get 4xx errors in the OpenAI shape, and the next request still works', async ({ page }) => {
  await openHarness(page);
  await startVaani(page);
  const file = wavBase64(
    whiteNoise(8000).map((v) => v * 0.1),
    16000,
  );
  const cases: [Record<string, string>, string | null, number, string][] = [
    [{}, null, 400, 'file'],
    [{ voice: 'nobody' }, file, 404, 'voice'],
    [{}, file, 400, 'voice'],
    [{ voice: VOICE, speed: '3' }, file, 400, 'speed'],
    [{ voice: VOICE, speed: 'fast' }, file, 400, 'speed'],
    [{ voice: VOICE, stability: '1.5' }, file, 400, 'stability'],
    [{ voice: VOICE, style: '-1' }, file, 400, 'style'],
    [{ voice: VOICE }, Buffer.from('GIF89a not audio').toString('base64'), 400, 'file'],
  ];
  for (const [fields, body, status, param] of cases) {
    const answer = await post(page, '/v1/audio/speech-to-speech', { file: body, fields });
    expect(answer.status, JSON.stringify(fields)).toBe(status);
    expect(errorOf(answer).error.param, JSON.stringify(fields)).toBe(param);
  }
  const ok = audioOf(await post(page, '/v1/audio/speech-to-speech', { file, fields: { voice: VOICE, speed: '2' } }));
  expect([ok.sampleRate, ok.samples.length]).toEqual([16000, 4000]);
});

test("speed time-stretches the converted speech and keeps its pitch at the voice's median", async ({ page }) => {
  await openHarness(page);
  await startVaani(page);
  const target = findVoice(VOICE)!;
  const normal = await convert(page, {});
  for (const speed of [0.5, 2]) {
    const out = await convert(page, { speed: String(speed) });
    expect(Math.abs(out.samples.length - normal.samples.length / speed) / out.sampleRate).toBeLessThanOrEqual(0.01);
    const median = pitchStats(out.samples, out.sampleRate).median;
    console.log(
      `speed ${speed}: ${(out.samples.length / out.sampleRate).toFixed(3)} s (from ${(normal.samples.length / normal.sampleRate).toFixed(3)} s), F0 ${median.toFixed(1)} Hz`,
    );
    expect(Math.abs(median / target.medianF0 - 1)).toBeLessThan(0.1);
  }
});

test('style widens the intonation range; stability steadies the fast pitch variation', async ({ page }) => {
  await openHarness(page);
  await startVaani(page);
  const range = async (style: string) => {
    const out = await convert(page, { style });
    return pitchStats(out.samples, out.sampleRate).rangeSemitones;
  };
  const [flat, usual, wide] = [await range('0'), await range('0.35'), await range('1')];
  console.log(
    `F0 range (10th–90th percentile): style 0 ${flat.toFixed(2)}, 0.35 ${usual.toFixed(2)}, 1 ${wide.toFixed(2)} semitones`,
  );
  expect(wide).toBeGreaterThan(1.5 * usual);
  expect(flat).toBeLessThan(0.8 * usual);

  const variation = async (stability: string) => {
    const out = await convert(page, { stability });
    return fastVariation(out.samples, out.sampleRate);
  };
  const [shaky, usualVariation, steady] = [await variation('0'), await variation('0.5'), await variation('1')];
  console.log(
    `fast F0 variation: stability 0 ${shaky.toFixed(3)}, 0.5 ${usualVariation.toFixed(3)}, 1 ${steady.toFixed(3)} semitones`,
  );
  expect(shaky).toBeGreaterThan(usualVariation);
  expect(usualVariation).toBeGreaterThan(steady);
  expect(shaky).toBeGreaterThan(1.3 * steady);
});
