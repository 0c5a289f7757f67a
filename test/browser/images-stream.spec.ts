import { expect, test } from '@playwright/test';
import { ensureLcmDiffusion, FIXTURE_URL } from '../fixtures/diffusion/ensure';
import { openImages } from './support/images';

test.beforeAll(async () => {
  await ensureLcmDiffusion();
});

test('stream: true through the openai SDK: partial_images previews of the LCM steps, then the completed image the plain request makes', async ({
  page,
}) => {
  const errors = await openImages(page);
  const got = await page.evaluate(async (url) => {
    const { ai, client } = window.imageService(url);
    const request = { model: 'image-v1', prompt: 'a Madhubani fish', seed: 3 };
    const events: { type: string; b64: string; index?: number }[] = [];
    const stream = (await client.images.generate({
      ...request,
      stream: true,
      partial_images: 2,
    } as never)) as unknown as AsyncIterable<{
      type: string;
      b64_json: string;
      partial_image_index?: number;
    }>;
    for await (const event of stream)
      events.push({ type: event.type, b64: event.b64_json, index: event.partial_image_index });
    const plain = await client.images.generate(request as never);
    ai.dispose();
    return { events, plain: (plain as { data: { b64_json: string }[] }).data[0]!.b64_json };
  }, `${FIXTURE_URL}tiny-lcm/`);
  expect(errors).toEqual([]);
  expect(got.events.map((e) => [e.type, e.index])).toEqual([
    ['image_generation.partial_image', 0],
    ['image_generation.partial_image', 1],
    ['image_generation.completed', undefined],
  ]);
  expect(got.events[2]!.b64).toBe(got.plain);
  expect(got.events[0]!.b64).not.toBe(got.plain);
  expect(got.events[0]!.b64).not.toBe(got.events[1]!.b64);
});
