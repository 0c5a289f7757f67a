import * as v from 'valibot';
import { forwardOnly } from '../forward-only';

/** POST /agents/run: a task (input) for an agent with optional tools. */
export const agentsRun = forwardOnly(
  'agents',
  v.object({
    model: v.optional(v.pipe(v.string(), v.minLength(1)), 'agent-v1'),
    input: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
    instructions: v.optional(v.string()),
    tools: v.optional(v.array(v.object({ type: v.literal('function'), function: v.object({ name: v.string() }) }))),
    max_steps: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50)), 10),
    stream: v.optional(v.boolean(), false),
  }),
);
