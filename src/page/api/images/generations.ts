import * as v from 'valibot';
import { defaultModel } from '../../../catalogue/families';
import { parse, readJson } from '../http/body';
import { requireModel } from '../http/models-check';
import { dispatchTo, type Services } from '../http/dispatch';
import { imageParams, imagesResponse, pickSeed, SIZE_PATTERN } from './_response';
import { deliveryFor, streamImages } from './_stream';
import { STYLE_PRESETS, type StylePreset } from './_styles';

export const generationsSchema = v.object({
  model: v.optional(v.pipe(v.string(), v.minLength(1)), defaultModel('/images/generations')),
  prompt: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(4000)),
  n: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(4)), 1),
  size: v.optional(v.pipe(v.string(), v.regex(SIZE_PATTERN, "must be 'auto' or WIDTHxHEIGHT")), 'auto'),
  quality: v.optional(v.picklist(['standard', 'hd', 'auto']), 'standard'),
  style: v.optional(v.picklist(Object.keys(STYLE_PRESETS) as StylePreset[])),
  response_format: v.optional(v.picklist(['url', 'b64_json']), 'b64_json'),
  output_format: v.optional(v.picklist(['png', 'jpeg', 'webp']), 'png'),
  output_compression: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100))),
  seed: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(2 ** 32 - 1))),
  /** Extension: denoising steps, 1–8 (default: the scheduler's own, 1 for Euler and 4 for the few-step samplers). */
  steps: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(8))),
  stream: v.optional(v.boolean()),
  partial_images: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(3)), 0),
  /** Extension, with `stream`: an `image_generation.progress` event after every denoising step. */
  progress: v.optional(v.boolean()),
  user: v.optional(v.string()),
});

/**
 * POST /images/generations in OpenAI's shape; `seed` (extension) makes a request repeatable;
 * `quality: 'hd'` doubles the size through the export's super-resolution stage.
 */
export async function POST(ctx: Services, request: Request, path: string): Promise<Response> {
  const { value, raw } = await readJson(request);
  const body = parse(generationsSchema, value);
  const model = requireModel(body.model, 'image');
  const seed = pickSeed(body.seed);
  const to = { model: model.id, kind: 'images' as const, streaming: body.stream === true };
  // `progress` is how ai.images listens in the page; a remote is sent the request without it.
  const forwarded = body.progress === undefined ? raw : withoutField(value, 'progress');
  return dispatchTo(ctx, { request, path, raw: forwarded }, to, async (engine) => {
    const params = { ...imageParams(body, seed), hd: body.quality === 'hd', steps: body.steps };
    if (body.stream) {
      const streamed = { ...params, partialImages: body.partial_images };
      const run = (signal: AbortSignal, onProgress: Parameters<typeof engine.generate>[2]) =>
        engine.generate(streamed, signal, onProgress);
      return streamImages('image_generation', run, body, seed, request, deliveryFor(ctx, request));
    }
    const result = await engine.generate(params, request.signal);
    return imagesResponse(result, body, seed, body.style ? params.prompt : undefined);
  });
}

const withoutField = (value: unknown, name: string) => {
  const { [name]: _dropped, ...rest } = value as Record<string, unknown>;
  return new TextEncoder().encode(JSON.stringify(rest));
};
