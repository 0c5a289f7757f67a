import { expect, test } from '@playwright/test';
import { styledPrompt } from '../../src/page/api/images/_styles';
import { ensureTinyDiffusion, FIXTURE_URL } from '../fixtures/diffusion/ensure';
import { referenceImage } from '../fixtures/diffusion/reference';
import { openImages } from './support/images';

const URL = `${FIXTURE_URL}tiny/`;
let dir: string;
test.beforeAll(async () => {
  dir = await ensureTinyDiffusion();
});

const maxAbsDiff = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let worst = a.length === b.length ? 0 : Infinity;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
  return worst;
};

test('openai SDK images.generate (default retries): Warli preset, two seeded PNGs equal to a second implementation; url, jpeg, webp, HD ×2 and clear 400s over fetch', async ({
  page,
}) => {
  const errors = await openImages(page);
  const got = await page.evaluate(async (url) => {
    const { ai, client, post: postTo, pixels } = window.imageService(url);
    const sdk = await client.images.generate({
      model: 'image-v1',
      prompt: 'a village dance',
      n: 2,
      style: 'warli' as never,
      seed: 42,
    } as never);
    const decoded = await Promise.all(sdk.data!.map((item) => pixels(`data:image/png;base64,${item.b64_json}`)));
    const post = (body: object) => postTo('/images/generations', body);
    const formats = [];
    for (const output_format of ['jpeg', 'webp']) {
      const response = await post({ prompt: 'a peacock', response_format: 'url', output_format, seed: 1 });
      const answer = await response.json();
      if (!answer.data) throw new Error(JSON.stringify(answer));
      const item = answer.data[0];
      formats.push({
        prefix: item.url.slice(0, 23),
        size: (await pixels(item.url)).width,
        seed: response.headers.get('x-vaani-seed'),
      });
    }
    const hdAnswer = await (await post({ prompt: 'a peacock', quality: 'hd', seed: 1 })).json();
    const hdImage = await pixels(`data:image/png;base64,${hdAnswer.data[0].b64_json}`);
    const hd = { size: hdAnswer.size, width: hdImage.width, height: hdImage.height };
    const bad = [];
    for (const body of [
      { prompt: 'x', size: '512x512' },
      { prompt: 'x', quality: 'hd', size: '64x64' },
      { prompt: 'x', style: 'cubist' },
    ]) {
      const response = await post(body);
      bad.push({ status: response.status, error: (await response.json()).error });
    }
    ai.dispose();
    return {
      hd,
      sdk: {
        size: sdk.size,
        output_format: (sdk as { output_format?: string }).output_format,
        revised: sdk.data!.map((d) => d.revised_prompt),
      },
      decoded,
      formats,
      bad,
    };
  }, URL);
  expect(errors).toEqual([]);
  expect(got.sdk).toMatchObject({ size: '64x64', output_format: 'png' });
  expect(got.sdk.revised[0]).toContain('Warli tribal painting');
  const prompt = styledPrompt('a village dance', 'warli');
  for (const [i, image] of got.decoded.entries()) {
    expect([image.width, image.height]).toEqual([64, 64]);
    const reference = await referenceImage(dir, prompt, 42 + i, 'euler', 1);
    // Stated bounds: WASM's kernels against native CPU ones, amplified by one step at σ = 14.6 and
    // the VAE's 1/0.18215, move a pixel by at most 2 of 255 (measured: 2, on 8.5% of values).
    const meanDiff = image.rgba.reduce((sum, value, j) => sum + Math.abs(value - reference[j]!), 0) / reference.length;
    expect(maxAbsDiff(image.rgba, reference)).toBeLessThanOrEqual(3);
    expect(meanDiff).toBeLessThan(0.25);
  }
  expect(maxAbsDiff(got.decoded[0]!.rgba, got.decoded[1]!.rgba)).toBeGreaterThan(10);
  expect(got.formats).toEqual([
    { prefix: 'data:image/jpeg;base64,', size: 64, seed: '1' },
    { prefix: 'data:image/webp;base64,', size: 64, seed: '1' },
  ]);
  expect(got.bad.map((b) => b.status)).toEqual([400, 400, 400]);
  expect(got.bad[0]!.error).toMatchObject({ param: 'size', message: expect.stringContaining('64x64') });
  expect(got.bad[1]!.error).toMatchObject({ param: 'size', message: expect.stringContaining('128x128') });
  expect(got.hd).toEqual({ size: '128x128', width: 128, height: 128 });
  expect(got.bad[2]!.error).toMatchObject({ param: 'style' });
});

test("sessions made and released stage by stage (image.sessions 'stagewise', for short memory) give the same PNG as kept ones; Server-Timing splits the graphs from the PNG encoder and the whole worker call", async ({
  page,
}) => {
  const errors = await openImages(page);
  const got = await page.evaluate(async (url) => {
    const answer = async (sessions: 'resident' | 'stagewise') => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: { 'image-v1': { baseURL: url, image: { sessions } } },
      });
      const response = await ai.fetch(`${ai.baseURL}/images/generations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
        body: JSON.stringify({ prompt: 'a Mughal garden', seed: 5, quality: 'hd' }),
      });
      const json = await response.json();
      ai.dispose();
      return { b64: json.data[0].b64_json as string, timing: response.headers.get('server-timing') ?? '' };
    };
    return { resident: await answer('resident'), stagewise: await answer('stagewise') };
  }, URL);
  expect(errors).toEqual([]);
  expect(got.stagewise.b64).toBe(got.resident.b64);
  const names = (timing: string) => timing.split(', ').map((entry) => entry.split(';')[0]);
  for (const { timing } of [got.resident, got.stagewise])
    expect(names(timing)).toEqual(['text_encoder', 'unet', 'vae_decoder', 'upscaler', 'encode', 'worker', 'sessions']);
  // worker is the whole call in the worker: at least its graphs, encoder and session creation.
  for (const { timing } of [got.resident, got.stagewise]) {
    const dur = Object.fromEntries(
      [...timing.matchAll(/(\w+)(?:;desc="\w+")?;dur=([\d.]+)/g)].map((m) => [m[1]!, Number(m[2])]),
    );
    const parts = ['text_encoder', 'unet', 'vae_decoder', 'upscaler', 'encode', 'sessions'];
    expect(dur.worker).toBeGreaterThanOrEqual(parts.reduce((sum, name) => sum + (dur[name] ?? 0), 0) - 0.05);
  }
  expect(got.resident.timing).toMatch(/sessions;desc="resident"$/);
  // Stage by stage, each request creates its sessions (their time is the sessions entry's dur).
  expect(got.stagewise.timing).toMatch(/sessions;desc="stagewise";dur=[\d.]+$/);
  expect(got.resident.timing).toMatch(/encode;dur=[\d.]+/);
});
