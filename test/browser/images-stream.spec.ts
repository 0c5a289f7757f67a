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

test('ai.images: a progress event after every step of every image (generate and edit), the same images as the route, errors as BadRequestError', async ({
  page,
}) => {
  const errors = await openImages(page);
  const got = await page.evaluate(async (url) => {
    const { ai, client } = window.imageService(url);
    const b64 = async (blob: Blob) => {
      const bytes = new Uint8Array(await blob.arrayBuffer());
      let binary = '';
      for (const byte of bytes) binary += String.fromCharCode(byte);
      return btoa(binary);
    };
    const progress: { kind: string; image: number; step: number; steps: number }[] = [];
    ai.images.addEventListener('progress', (event) => progress.push((event as CustomEvent).detail));
    // Answered in the page, the images are handed over as bytes: no base64 written or read on the way.
    const proto = Uint8Array.prototype as Uint8Array & { toBase64?: () => string };
    const [toBase64, atob] = [proto.toBase64, window.atob];
    let base64Calls = 0;
    proto.toBase64 = function (this: Uint8Array) {
      base64Calls++;
      return toBase64!.call(this);
    };
    window.atob = (data: string) => (base64Calls++, atob(data));
    const made = await ai.images.generate('a Madhubani fish', { seed: 3, n: 2 });
    [proto.toBase64, window.atob] = [toBase64, atob];
    const generated = progress.splice(0);
    const plain = await client.images.generate({
      model: 'image-v1',
      prompt: 'a Madhubani fish',
      seed: 3,
      n: 2,
    } as never);
    const edited = await ai.images.edit(made.images[0]!, 'a Warli peacock', { seed: 4, strength: 0.5 });
    const failure = await ai.images.generate('x', { size: '512x512' }).then(
      () => undefined,
      (error: { name: string; status: number; param: string }) => ({
        name: error.name,
        classes: [window.Vaani.BadRequestError, window.Vaani.ImagesError, window.Vaani.VaaniError].map(
          (Class) => error instanceof Class,
        ),
        status: error.status,
        param: error.param,
      }),
    );
    ai.dispose();
    return {
      generated,
      base64Calls,
      edits: progress,
      made: { size: made.size, seed: made.seed, types: made.images.map((image) => image.type) },
      mine: await Promise.all(made.images.map(b64)),
      plain: (plain as { data: { b64_json: string }[] }).data.map((item) => item.b64_json),
      edited: {
        size: edited.size,
        count: edited.images.length,
        differs: (await b64(edited.images[0]!)) !== (await b64(made.images[0]!)),
      },
      failure,
    };
  }, `${FIXTURE_URL}tiny-lcm/`);
  expect(errors).toEqual([]);
  const steps = (kind: string, images: number) =>
    Array.from({ length: images * 4 }, (_, i) => ({ kind, image: Math.floor(i / 4), step: (i % 4) + 1, steps: 4 }));
  expect(got.generated).toEqual(steps('generation', 2));
  // strength 0.5 on a four-step LCM export: eight scheduled steps, the last four run.
  expect(got.edits).toEqual(steps('edit', 1));
  expect(got.made).toEqual({ size: '64x64', seed: 3, types: ['image/png', 'image/png'] });
  expect(got.mine).toEqual(got.plain);
  expect(got.base64Calls).toBe(0);
  expect(got.edited).toEqual({ size: '64x64', count: 1, differs: true });
  // A BadRequestError is an APIError (ImagesError: its older name) and a VaaniError.
  expect(got.failure).toEqual({ name: 'BadRequestError', classes: [true, true, true], status: 400, param: 'size' });
});

test('steps (extension, 1–8): the LCM fixture runs the steps asked for, with a progress event each; 9 is a 400', async ({
  page,
}) => {
  const errors = await openImages(page);
  const got = await page.evaluate(async (url) => {
    const { ai, post } = window.imageService(url);
    const progress: { step: number; steps: number }[] = [];
    ai.images.addEventListener('progress', (event) => progress.push((event as CustomEvent).detail));
    const bytes = async (blob: Blob) => Array.from(new Uint8Array(await blob.arrayBuffer())).join();
    const two = await ai.images.generate('a Mughal garden', { seed: 5, steps: 2 });
    const twoSteps = progress.splice(0).map(({ step, steps }) => `${step}/${steps}`);
    const four = await ai.images.generate('a Mughal garden', { seed: 5 });
    const fourSteps = progress.splice(0).length;
    // Eight fast steps: every progress event arrives before the image (none overtaken by the result).
    await ai.images.generate('a Mughal garden', { seed: 5, steps: 8 });
    const eightSteps = progress.splice(0).map(({ step }) => step);
    const again = await ai.images.generate('a Mughal garden', { seed: 5, steps: 2 });
    const response = await post('/images/generations', { prompt: 'x', steps: 9 });
    const refused = { status: response.status, param: (await response.json()).error?.param };
    ai.dispose();
    return {
      twoSteps,
      fourSteps,
      eightSteps,
      differs: (await bytes(two.images[0]!)) !== (await bytes(four.images[0]!)),
      repeatable: (await bytes(two.images[0]!)) === (await bytes(again.images[0]!)),
      refused,
    };
  }, `${FIXTURE_URL}tiny-lcm/`);
  expect(errors).toEqual([]);
  expect(got.twoSteps).toEqual(['1/2', '2/2']);
  expect(got.fourSteps).toBe(4);
  expect(got.eightSteps).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  expect(got.differs).toBe(true);
  expect(got.repeatable).toBe(true);
  expect(got.refused).toEqual({ status: 400, param: 'steps' });
});
