import { expect, test } from '@playwright/test';
import { ensureTinyDiffusion, FIXTURE_URL } from '../fixtures/diffusion/ensure';
import { openImages } from './support/images';

test.beforeAll(async () => {
  await ensureTinyDiffusion();
});

test('openai SDK images.edit with a mask keeps every unmasked pixel; undecodable images and mismatched masks are 400 invalid_image', async ({
  page,
}) => {
  const errors = await openImages(page);
  const got = await page.evaluate(async (url) => {
    const { ai, client, post: postTo, pixels } = window.imageService(url);
    const png = async (width: number, draw: (context: OffscreenCanvasRenderingContext2D) => void) => {
      const canvas = new OffscreenCanvas(width, width);
      draw(canvas.getContext('2d')!);
      return new File([await canvas.convertToBlob({ type: 'image/png' })], 'picture.png', { type: 'image/png' });
    };
    const image = await png(64, (context) => {
      const gradient = context.createLinearGradient(0, 0, 64, 64);
      gradient.addColorStop(0, '#b5462a');
      gradient.addColorStop(1, '#f1e4c8');
      context.fillStyle = gradient;
      context.fillRect(0, 0, 64, 64);
    });
    // Opaque (kept) on the left half, transparent (edited) on the right.
    const mask = await png(64, (context) => {
      context.fillStyle = '#000';
      context.fillRect(0, 0, 32, 64);
    });
    const edited = await client.images.edit({
      model: 'image-v1',
      image,
      mask,
      prompt: 'a Warli peacock',
      seed: 9,
    } as never);
    const base64 = (edited as { data: { b64_json: string }[] }).data[0]!.b64_json;
    const result = (await pixels(`data:image/png;base64,${base64}`)).rgba;
    const post = async (form: FormData) => {
      const response = await postTo('/images/edits', form);
      return { status: response.status, error: (await response.json()).error };
    };
    const form = (fields: Record<string, Blob | string>) => {
      const data = new FormData();
      for (const [name, value] of Object.entries(fields)) data.append(name, value);
      return data;
    };
    const bad = [
      await post(form({ image: new File(['not an image'], 'x.png', { type: 'image/png' }), prompt: 'p' })),
      await post(form({ image, mask: await png(32, () => {}), prompt: 'p' })),
    ];
    ai.dispose();
    return { original: (await pixels(image)).rgba, result, bad };
  }, `${FIXTURE_URL}tiny/`);
  expect(errors).toEqual([]);
  const side = (rgba: number[], left: boolean) => rgba.filter((_, i) => Math.floor(i / 4) % 64 < 32 === left);
  expect(side(got.result, true)).toEqual(side(got.original, true));
  const changed = side(got.result, false).filter((value, i) => value !== side(got.original, false)[i]).length;
  expect(changed).toBeGreaterThan(1000);
  expect(got.bad.map((b) => b.status)).toEqual([400, 400]);
  expect(got.bad[0]!.error).toMatchObject({ param: 'image', code: 'invalid_image' });
  expect(got.bad[1]!.error).toMatchObject({ param: 'mask', code: 'invalid_image' });
});
