import * as v from 'valibot';
import { defaultModel } from '../../../catalogue/families';
import { numeric, textBoolean } from '../audio/_schema';
import { parse, readForm } from '../http/body';
import { requireModel } from '../http/models-check';
import { dispatchTo, type Services } from '../http/dispatch';
import { imageParams, imagesResponse, pickSeed, SIZE_PATTERN } from './_response';
import { deliveryFor, streamImages } from './_stream';
import { STYLE_PRESETS, type StylePreset } from './_styles';

const file = v.pipe(
  v.instance(File, 'must be a file upload'),
  v.check((f) => f.size > 0, 'must not be empty'),
);

export const editsSchema = v.object({
  model: v.optional(v.pipe(v.string(), v.minLength(1)), defaultModel('/images/edits')),
  /** One image (`image`, or `image[]` with one file as the SDK sends a list). */
  image: v.union([file, v.pipe(v.array(file), v.length(1, 'one image is edited at a time here'))]),
  mask: v.optional(file),
  prompt: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(4000)),
  n: v.optional(numeric(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(4))), '1'),
  size: v.optional(v.pipe(v.string(), v.regex(SIZE_PATTERN, "must be 'auto' or WIDTHxHEIGHT")), 'auto'),
  style: v.optional(v.picklist(Object.keys(STYLE_PRESETS) as StylePreset[])),
  response_format: v.optional(v.picklist(['url', 'b64_json']), 'b64_json'),
  output_format: v.optional(v.picklist(['png', 'jpeg', 'webp']), 'png'),
  output_compression: v.optional(numeric(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100)))),
  seed: v.optional(numeric(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(2 ** 32 - 1)))),
  /** Extension: how far the image goes into noise, (0, 1]. */
  strength: v.optional(numeric(v.pipe(v.number(), v.gtValue(0), v.maxValue(1))), '0.8'),
  stream: v.optional(textBoolean),
  partial_images: v.optional(numeric(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(3))), '0'),
  /** Extension, with `stream`: an `image_edit.progress` event after every denoising step. */
  progress: v.optional(textBoolean),
  user: v.optional(v.string()),
});

/**
 * POST /images/edits (multipart, OpenAI's shape): image-to-image through the VAE encoder; with a
 * mask, only its transparent pixels change (kept latents are reset every step, kept pixels copied).
 */
export async function POST(ctx: Services, request: Request, path: string): Promise<Response> {
  const { value, raw } = await readForm(request);
  const body = parse(editsSchema, value);
  const model = requireModel(body.model, 'image');
  const seed = pickSeed(body.seed);
  const to = { model: model.id, kind: 'images' as const, streaming: body.stream === true };
  return dispatchTo(ctx, { request, path, raw }, to, async (engine) => {
    const params = {
      ...imageParams(body, seed),
      image: Array.isArray(body.image) ? body.image[0]! : body.image,
      mask: body.mask,
      strength: body.strength,
      partialImages: body.stream ? body.partial_images : 0,
    };
    if (body.stream)
      return streamImages(
        'image_edit',
        (signal, onProgress) => engine.edit(params, signal, onProgress),
        body,
        seed,
        request,
        deliveryFor(ctx, request),
      );
    const result = await engine.edit(params, request.signal);
    return imagesResponse(result, body, seed, body.style ? params.prompt : undefined);
  });
}
