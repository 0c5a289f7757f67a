import type { ImageEditParamsNonStreaming, ImageGenerateParamsNonStreaming } from 'openai/resources/images';
import type { Service } from './service';
import { byId, describeError, say } from './ui';

/**
 * Images tab: images.generate (or images.edit of an uploaded picture) through the openai SDK with a
 * style preset and a seed. image-v1 has
 * no default weights (see the README on licences): put a diffusers ONNX export in the models
 * folder as image-v1/, or set a remote in Settings.
 */
export function mountImages(service: Service): void {
  const status = byId('images-status');
  const output = byId('images-output');
  byId('images-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      say(status, 'Generating…', 'busy');
      const started = performance.now();
      try {
        const seedText = byId<HTMLInputElement>('images-seed').value.trim();
        const style = byId<HTMLSelectElement>('images-style').value;
        const upload = byId<HTMLInputElement>('images-upload').files?.[0];
        const common = {
          model: 'image-v1',
          prompt: byId<HTMLTextAreaElement>('images-prompt').value,
          ...(style ? { style: style as never } : {}),
          ...(seedText ? { seed: Number(seedText) } : {}),
        };
        const quality = byId<HTMLInputElement>('images-hd').checked ? { quality: 'hd' as const } : {};
        // With an uploaded picture the prompt edits it (images.edit), else it makes a new one.
        const result = upload
          ? await service.client.images.edit({ ...common, image: upload } as ImageEditParamsNonStreaming)
          : await service.client.images.generate({ ...common, ...quality } as ImageGenerateParamsNonStreaming);
        output.replaceChildren(
          ...(result.data ?? []).map((item) => {
            const image = document.createElement('img');
            image.src = `data:image/png;base64,${item.b64_json}`;
            image.alt = item.revised_prompt ?? 'generated image';
            return image;
          }),
        );
        say(status, `${result.size} in ${Math.round(performance.now() - started)} ms`, 'ok');
      } catch (error) {
        say(status, describeError(error), 'error');
      }
    })();
  });
}
