import * as v from 'valibot';
import { forwardOnly } from '../forward-only';

/** POST /code/completions, in OpenAI's legacy completions shape (prompt, suffix → text). */
export const codeCompletions = forwardOnly(
  'code',
  v.object({
    model: v.optional(v.pipe(v.string(), v.minLength(1)), 'code-v1'),
    prompt: v.string(),
    suffix: v.optional(v.string()),
    max_tokens: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
    temperature: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(2)), 0.2),
    top_p: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1)), 1),
    stop: v.optional(v.union([v.string(), v.pipe(v.array(v.string()), v.maxLength(4))])),
    stream: v.optional(v.boolean(), false),
  }),
);
