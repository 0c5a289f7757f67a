import type { Page } from '@playwright/test';
import { openHarness } from './page';

/**
 * Opens the harness and gives the page `window.imageService(url)`: a WASM Vaani with image-v1 on
 * the diffusers export at `url`, the openai SDK pointed at it, a JSON poster and a pixel reader —
 * the setup every images spec shares. Returns the page errors, as openHarness does.
 */
export async function openImages(page: Page): Promise<string[]> {
  const errors = await openHarness(page);
  await page.evaluate(() => {
    window.imageService = (url) => {
      const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'image-v1': { baseURL: url } } });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
      });
      const post = (path: string, body: object | FormData) =>
        ai.fetch(`${ai.baseURL}${path}`, {
          method: 'POST',
          headers: {
            authorization: 'Bearer k',
            ...(body instanceof FormData ? {} : { 'content-type': 'application/json' }),
          },
          body: body instanceof FormData ? body : JSON.stringify(body),
        });
      const pixels = async (image: Blob | string) => {
        const bitmap = await createImageBitmap(typeof image === 'string' ? await (await fetch(image)).blob() : image);
        const context = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d')!;
        context.drawImage(bitmap, 0, 0);
        const rgba = Array.from(context.getImageData(0, 0, bitmap.width, bitmap.height).data);
        return { width: bitmap.width, height: bitmap.height, rgba };
      };
      return { ai, client, post, pixels };
    };
  });
  return errors;
}
