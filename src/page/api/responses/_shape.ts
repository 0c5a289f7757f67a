import type { ChatOutcome, ChatParams, Usage } from '../../../protocol/chat';
import type { OutputItem } from './_output';
import type { ResponsesRequest } from './_schema';

/** How a response ended: its status, why it is incomplete, and the tokens it used. */
export interface Ending {
  status: 'completed' | 'incomplete';
  incomplete_details: { reason: string } | null;
  usage: Usage;
}

export const endingOf = (outcome: ChatOutcome): Ending => ({
  status: outcome.finish_reason === 'length' ? 'incomplete' : 'completed',
  incomplete_details: outcome.finish_reason === 'length' ? { reason: 'max_output_tokens' } : null,
  usage: outcome.usage,
});

/** OpenAI's response object (`in_progress` until it has an ending). */
export const responseShape = (
  { id, createdAt, body, params }: { id: string; createdAt: number; body: ResponsesRequest; params: ChatParams },
  output: OutputItem[],
  end?: Ending,
) => ({
  id,
  object: 'response',
  created_at: createdAt,
  status: end?.status ?? 'in_progress',
  error: null,
  incomplete_details: end?.incomplete_details ?? null,
  instructions: body.instructions ?? null,
  max_output_tokens: body.max_output_tokens ?? null,
  model: body.model,
  output,
  parallel_tool_calls: body.parallel_tool_calls ?? true,
  previous_response_id: body.previous_response_id ?? null,
  reasoning: { effort: body.reasoning?.effort ?? null, summary: body.reasoning?.summary ?? null },
  store: body.store !== false,
  temperature: params.temperature,
  text: { format: body.text?.format ?? { type: 'text' } },
  tool_choice: body.tool_choice ?? 'auto',
  tools: body.tools ?? [],
  top_p: params.top_p,
  truncation: 'disabled',
  usage: end
    ? {
        input_tokens: end.usage.prompt_tokens,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: end.usage.completion_tokens,
        output_tokens_details: { reasoning_tokens: end.usage.completion_tokens_details?.reasoning_tokens ?? 0 },
        total_tokens: end.usage.total_tokens,
      }
    : null,
  user: body.user ?? null,
  metadata: body.metadata ?? {},
});
