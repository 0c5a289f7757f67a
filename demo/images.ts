import type { ImagesProgress } from './vaani';
import type { Service } from './service';
import { byId, describeError, say } from './ui';

/**
 * Images tab: `ai.images.generate` (or `ai.images.edit` of an uploaded picture) with a style preset
 * and a seed, showing every denoising step from ai.images' `progress` events, on image-v1's
 * default (LCM Dreamshaper v7, WebGPU), the folder's image-v1/ or the remote.
 */
export function mountImages(service: Service): void {
  const status = byId('images-status');
  const output = byId('images-output');
  const bar = byId<HTMLProgressElement>('images-progress');
  let urls: string[] = [];
  service.addEventListener('change', () => (byId('images-folder').textContent = `${service.source.folder}/image-v1/`));
  byId('images-form').addEventListener('submit', (event) => {
    event.preventDefault();
    void (async () => {
      say(status, 'Generating…', 'busy');
      bar.value = 0;
      bar.hidden = false;
      const started = performance.now();
      const images = service.ai.images;
      const onProgress = (event: Event) => {
        const { image, step, steps, kind } = (event as CustomEvent<ImagesProgress>).detail;
        bar.value = step / steps;
        say(
          status,
          `${kind === 'edit' ? 'Editing' : 'Generating'}: image ${image + 1}, step ${step} of ${steps}`,
          'busy',
        );
      };
      images.addEventListener('progress', onProgress);
      try {
        const seedText = byId<HTMLInputElement>('images-seed').value.trim();
        const style = byId<HTMLSelectElement>('images-style').value;
        const upload = byId<HTMLInputElement>('images-upload').files?.[0];
        const prompt = byId<HTMLTextAreaElement>('images-prompt').value;
        const common = {
          ...(style ? { style: style as 'warli' } : {}),
          ...(seedText ? { seed: Number(seedText) } : {}),
        };
        const quality = byId<HTMLInputElement>('images-hd').checked ? { quality: 'hd' as const } : {};
        // With an uploaded picture the prompt edits it, else it makes a new one.
        const result = upload
          ? await images.edit(upload, prompt, common)
          : await images.generate(prompt, { ...common, ...quality });
        for (const url of urls) URL.revokeObjectURL(url);
        urls = result.images.map((blob) => URL.createObjectURL(blob));
        output.replaceChildren(
          ...urls.map((url) => {
            const image = document.createElement('img');
            image.src = url;
            image.alt = prompt;
            return image;
          }),
        );
        bar.value = 1;
        say(status, `${result.size} in ${Math.round(performance.now() - started)} ms (seed ${result.seed})`, 'ok');
      } catch (error) {
        bar.hidden = true;
        say(status, describeError(error), 'error');
      } finally {
        images.removeEventListener('progress', onProgress);
      }
    })();
  });
}
