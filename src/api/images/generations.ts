import * as v from 'valibot';
import { forwardOnly } from '../forward-only';

/** POST /images/generations, in OpenAI's images shape. */
export const imageGenerations = forwardOnly(
  'image',
  v.object({
    model: v.optional(v.pipe(v.string(), v.minLength(1)), 'image-v1'),
    prompt: v.pipe(v.string(), v.minLength(1, 'must not be empty'), v.maxLength(4000)),
    n: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(4)), 1),
    size: v.optional(v.picklist(['512x512', '1024x1024', '1024x1536', '1536x1024']), '1024x1024'),
    quality: v.optional(v.picklist(['standard', 'hd']), 'standard'),
    style: v.optional(v.picklist(['warli', 'madhubani', 'mughal', 'modern'])),
    response_format: v.optional(v.picklist(['url', 'b64_json']), 'b64_json'),
  }),
);
