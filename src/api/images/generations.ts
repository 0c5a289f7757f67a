import * as v from 'valibot';
import type { ImageFormat } from '../../protocol/images';
import { parse, readJson } from '../body';
import { badRequest } from '../errors';
import { requireModel } from '../models-check';
import { dispatchTo, type Services } from '../services';
import { STYLE_PRESETS, styledPrompt, type StylePreset } from './styles';

export const generationsSchema = v.object({
  model: v.optional(v.pipe(v.string(), v.minLength(1)), 'image-v1'),
  prompt: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(4000)),
  n: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(4)), 1),
  size: v.optional(v.pipe(v.string(), v.regex(/^(auto|\d{2,4}x\d{2,4})$/, "must be 'auto' or WIDTHxHEIGHT")), 'auto'),
  quality: v.optional(v.picklist(['standard', 'hd', 'auto']), 'standard'),
  style: v.optional(v.picklist(Object.keys(STYLE_PRESETS) as StylePreset[])),
  response_format: v.optional(v.picklist(['url', 'b64_json']), 'b64_json'),
  output_format: v.optional(v.picklist(['png', 'jpeg', 'webp']), 'png'),
  output_compression: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100))),
  seed: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(2 ** 32 - 1))),
  user: v.optional(v.string()),
});

const MIME: Record<ImageFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

export function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

const parseSize = (size: string) => {
  if (size === 'auto') return undefined;
  const [width, height] = size.split('x').map(Number) as [number, number];
  return { width, height };
};

/**
 * POST /images/generations in OpenAI's shape. `response_format: 'url'` gives a `data:` URL (it
 * works in any context and needs no revoking); `seed` (extension) makes a request repeatable;
 * `quality: 'hd'` is not made locally yet and answers a clear 400 (a remote may take it).
 */
export async function imageGenerations(ctx: Services, request: Request, path: string): Promise<Response> {
  const { value, raw } = await readJson(request);
  const body = parse(generationsSchema, value);
  const model = requireModel(body.model, 'image');
  const seed = body.seed ?? crypto.getRandomValues(new Uint32Array(1))[0]!;
  return dispatchTo(ctx, { request, path, raw }, { model: model.id, kind: 'images' }, async (engine) => {
    if (body.quality === 'hd')
      throw badRequest(
        "quality 'hd' (×2 super-resolution) is not made in the page yet: pass 'standard', or configure a remote.",
        'quality',
        'unsupported_value',
      );
    const result = await engine.generate(
      {
        prompt: styledPrompt(body.prompt, body.style),
        n: body.n,
        seed,
        size: parseSize(body.size),
        format: body.output_format,
        compression: body.output_compression,
      },
      request.signal,
    );
    const revised = body.style ? styledPrompt(body.prompt, body.style) : undefined;
    return Response.json(
      {
        created: Math.floor(Date.now() / 1000),
        data: result.images.map((bytes) => {
          const encoded = base64(bytes);
          const image =
            body.response_format === 'url'
              ? { url: `data:${MIME[body.output_format]};base64,${encoded}` }
              : { b64_json: encoded };
          return revised ? { ...image, revised_prompt: revised } : image;
        }),
        output_format: body.output_format,
        quality: body.quality,
        size: `${result.width}x${result.height}`,
      },
      { headers: { 'x-vaani-seed': String(seed), 'x-vaani-backend': result.backend } },
    );
  });
}
