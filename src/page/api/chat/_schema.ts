import * as v from 'valibot';
import { REASONING_EFFORTS } from './_thinking';
import { penaltyFields, range, samplingFields, stopSchema } from '../http/sampling';

const positiveInt = v.pipe(v.number(), v.integer(), v.minValue(1));

const textPart = v.object({ type: v.literal('text'), text: v.string() });
/** Any content part: the route names a non-text one in a 400 `unsupported_content` (a remote may read it). */
const contentPart = v.union([textPart, v.looseObject({ type: v.pipe(v.string(), v.notValue('text')) })]);

const toolCall = v.object({
  id: v.string(),
  type: v.literal('function'),
  function: v.object({ name: v.string(), arguments: v.string() }),
});

const message = v.variant(
  'role',
  [
    v.object({
      role: v.picklist(['system', 'developer', 'user']),
      content: v.union([v.string(), v.pipe(v.array(contentPart), v.minLength(1))]),
      name: v.optional(v.string()),
    }),
    v.object({
      role: v.literal('assistant'),
      content: v.optional(v.nullable(v.union([v.string(), v.array(textPart)])), null),
      name: v.optional(v.string()),
      tool_calls: v.optional(v.array(toolCall)),
    }),
    v.object({ role: v.literal('tool'), content: v.union([v.string(), v.array(textPart)]), tool_call_id: v.string() }),
  ],
  'must be one of system, developer, user, assistant or tool',
);

const tool = v.object({
  type: v.literal('function'),
  function: v.object({
    name: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/)),
    description: v.optional(v.string()),
    parameters: v.optional(v.record(v.string(), v.unknown())),
    strict: v.optional(v.nullable(v.boolean())),
  }),
});

const responseFormat = v.variant(
  'type',
  [
    v.object({ type: v.literal('text') }),
    v.object({ type: v.literal('json_object') }),
    v.object({
      type: v.literal('json_schema'),
      json_schema: v.object({
        name: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/)),
        description: v.optional(v.string()),
        schema: v.optional(v.record(v.string(), v.unknown())),
        strict: v.optional(v.nullable(v.boolean())),
      }),
    }),
  ],
  'must be one of text, json_object or json_schema',
);

const toolChoice = v.union([
  v.picklist(['none', 'auto', 'required']),
  v.object({ type: v.literal('function'), function: v.object({ name: v.string() }) }),
]);

export const chatRequestSchema = v.object({
  model: v.pipe(v.string(), v.minLength(1)),
  messages: v.pipe(v.array(message), v.minLength(1, 'must contain at least one message')),
  stream: v.optional(v.boolean(), false),
  stream_options: v.optional(v.nullable(v.object({ include_usage: v.optional(v.boolean(), false) }))),
  ...samplingFields,
  top_k: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  max_tokens: v.optional(v.nullable(positiveInt)),
  max_completion_tokens: v.optional(v.nullable(positiveInt)),
  n: v.optional(v.nullable(v.literal(1, 'only n = 1 is supported'))),
  stop: stopSchema,
  ...penaltyFields,
  tools: v.optional(v.array(tool)),
  tool_choice: v.optional(toolChoice),
  parallel_tool_calls: v.optional(v.nullable(v.boolean())),
  logprobs: v.optional(v.nullable(v.boolean())),
  top_logprobs: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(20)))),
  logit_bias: v.optional(v.nullable(v.record(v.string(), range(-100, 100)))),
  response_format: v.optional(v.nullable(responseFormat)),
  reasoning_effort: v.optional(v.nullable(v.picklist(REASONING_EFFORTS))),
  /** vLLM's template variables; `enable_thinking` turns thinking on or off. */
  chat_template_kwargs: v.optional(v.nullable(v.looseObject({ enable_thinking: v.optional(v.nullable(v.boolean())) }))),
  enable_thinking: v.optional(v.nullable(v.boolean())),
  user: v.optional(v.string()),
});

export type ChatRequest = v.InferOutput<typeof chatRequestSchema>;
