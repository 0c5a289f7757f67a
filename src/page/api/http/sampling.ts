import * as v from 'valibot';

/** A finite number within [min, max]. */
export const range = (min: number, max: number) => v.pipe(v.number(), v.finite(), v.minValue(min), v.maxValue(max));

/**
 * The sampling fields the chat-model routes share (OpenAI's ranges), with no defaults: absent or
 * null takes the route's row of services/chat/params.ts CHAT_DEFAULTS.
 */
export const samplingFields = {
  temperature: v.optional(v.nullable(range(0, 2))),
  top_p: v.optional(v.nullable(range(0, 1))),
  seed: v.optional(v.nullable(v.pipe(v.number(), v.integer()))),
};

/** The penalties of chat and legacy completions. */
export const penaltyFields = {
  presence_penalty: v.optional(v.nullable(range(-2, 2))),
  frequency_penalty: v.optional(v.nullable(range(-2, 2))),
};

/** `stop`: one string or up to four, none empty. */
export const stopSchema = v.optional(
  v.nullable(
    v.union([v.pipe(v.string(), v.minLength(1)), v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.maxLength(4))]),
  ),
);

/** OpenAI's answer to an `mcp_approval_request` (on /agents/run with `previous_run_id`, on /responses with `previous_response_id`). */
export const approvalResponse = v.object({
  type: v.literal('mcp_approval_response'),
  approval_request_id: v.pipe(v.string(), v.minLength(1)),
  approve: v.boolean(),
  reason: v.optional(v.nullable(v.string())),
  id: v.optional(v.string()),
});
