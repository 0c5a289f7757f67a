import { DELIVER_HEADER, type GeneratedImages, type ImageProgress } from '../../../protocol/images';
import { sseResponse } from '../http/sse';
import type { Services } from '../http/dispatch';
import { base64 } from '../http/base64';
import { unixSeconds } from '../../../common/ids';

/** The receiver a request's `x-vaani-deliver` names, if this page registered one. */
export const deliveryFor = (ctx: Services, request: Request) =>
  ctx.deliveries?.get(request.headers.get(DELIVER_HEADER) ?? '');

/**
 * `stream: true`: OpenAI's image events — `<kind>.partial_image` for up to `partial_images`
 * intermediate steps (the latents so far, decoded), then `<kind>.completed` per image; with
 * `progress: true` (extension) also `<kind>.progress` after every denoising step, which `ai.images`
 * turns into its `progress` events. `kind` is `image_generation` or `image_edit`. With `deliver`
 * (`ai.images` in this page), the encoded images go to it and each completed event carries
 * `image_index` instead of `b64_json`: Blobs without base64's encoding and decoding.
 */
export function streamImages(
  kind: 'image_generation' | 'image_edit',
  run: (signal: AbortSignal, onProgress: (progress: ImageProgress) => void) => Promise<GeneratedImages>,
  body: { output_format: string; quality?: string; size: string; progress?: boolean },
  seed: number,
  request: Request,
  deliver?: (images: Uint8Array[]) => void,
): Response {
  const created_at = unixSeconds();
  const common = {
    created_at,
    quality: body.quality ?? 'auto',
    background: 'opaque',
    output_format: body.output_format,
  };
  return sseResponse(
    request.signal,
    async (sink) => {
      let index = 0;
      const result = await run(sink.signal, (progress) => {
        if (body.progress) {
          const type = `${kind}.progress`;
          const { image: image_index, step, steps } = progress;
          sink.send({ type, image_index, step, steps }, type);
        }
        if (!progress.preview) return;
        const type = `${kind}.partial_image`;
        sink.send(
          { type, b64_json: base64(progress.preview), partial_image_index: index++, size: body.size, ...common },
          type,
        );
      });
      const size = `${result.width}x${result.height}`;
      const type = `${kind}.completed`;
      if (deliver) {
        deliver(result.images);
        result.images.forEach((_, image_index) => sink.send({ type, image_index, size, ...common }, type));
      } else for (const image of result.images) sink.send({ type, b64_json: base64(image), size, ...common }, type);
    },
    { 'x-vaani-seed': String(seed) },
  );
}
