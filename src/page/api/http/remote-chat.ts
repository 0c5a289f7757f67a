import type { ChatDelta, ChatEngine, ChatHooks, ChatOutcome, ChatParams, ToolCallDelta } from '../../../protocol/chat';
import { sseData } from '../../../common/sse';
import { ApiError } from './errors';
import type { Remote } from './remote';

/** A remote's answer that is not a success: the route sends it on as it came. */
export class RemoteAnswer extends Error {
  constructor(readonly response: Response) {
    super(`The remote answered ${response.status}.`);
    this.name = 'RemoteAnswer';
  }
}

/** ChatParams as OpenAI's chat request body (fields left at their absent value are not sent). */
function chatBody(params: ChatParams, stream: boolean) {
  const { model, messages, temperature, top_p, max_tokens, seed, tools, tool_choice, response_format } = params;
  const set = <T>(value: T | undefined, unset?: T) => (value === undefined || value === unset ? undefined : value);
  return {
    model,
    messages,
    temperature,
    top_p,
    max_tokens,
    stop: params.stop.length ? params.stop : undefined,
    seed,
    presence_penalty: set(params.presence_penalty, 0),
    frequency_penalty: set(params.frequency_penalty, 0),
    tools,
    tool_choice,
    parallel_tool_calls: params.parallel_tool_calls,
    response_format,
    logprobs: params.logprobs,
    top_logprobs: params.top_logprobs,
    logit_bias: params.logit_bias,
    stream,
    ...(stream ? { stream_options: { include_usage: true } } : {}),
  };
}

/** A delta, or a whole message (its tool calls have no index). */
type Piece = Omit<ChatDelta, 'tool_calls'> & { tool_calls?: (Omit<ToolCallDelta, 'index'> & { index?: number })[] };

interface Completion {
  choices: { message?: Piece; delta?: Piece; finish_reason?: ChatOutcome['finish_reason'] | null }[];
  usage?: ChatOutcome['usage'] | null;
  error?: { message: string; code: string | null; param: string | null };
}

/**
 * The remote's `/chat/completions` as a ChatEngine, for a route that reads chat deltas itself
 * (`/data/query`): sent with the caller's request headers, whole or streamed, its SSE parsed back
 * into deltas. A status other than 2xx is thrown as a {@link RemoteAnswer}.
 */
export function remoteChat(remote: Remote, request: Request, streaming: boolean): ChatEngine {
  return {
    async complete(params: ChatParams, hooks: ChatHooks): Promise<ChatOutcome> {
      const headers = new Headers(request.headers);
      headers.set('content-type', 'application/json');
      const body = new TextEncoder().encode(JSON.stringify(chatBody(params, streaming)));
      const call = new Request(request.url, { method: 'POST', headers, signal: hooks.signal });
      const response = await remote.forward('/chat/completions', call, body, streaming);
      if (!response.ok) throw new RemoteAnswer(response);
      hooks.onStart({ backend: 'remote' });
      const outcome: ChatOutcome = {
        finish_reason: 'stop',
        usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      };
      const take = (chunk: Completion) => {
        if (chunk.error)
          throw new ApiError(500, chunk.error.message, chunk.error.code ?? 'internal_error', chunk.error.param);
        const choice = chunk.choices?.[0];
        const delta = choice?.delta ?? choice?.message;
        if (delta?.content || delta?.tool_calls?.length || delta?.reasoning_content)
          hooks.onDelta({
            ...(delta.content ? { content: delta.content } : {}),
            ...(delta.reasoning_content ? { reasoning_content: delta.reasoning_content } : {}),
            ...(delta.tool_calls?.length
              ? { tool_calls: delta.tool_calls.map((call, i) => ({ ...call, index: call.index ?? i })) }
              : {}),
          });
        if (choice?.finish_reason) outcome.finish_reason = choice.finish_reason;
        if (chunk.usage) outcome.usage = chunk.usage;
      };
      if (!streaming) {
        take((await response.json()) as Completion);
        return outcome;
      }
      for await (const data of sseData(response.body!)) take(JSON.parse(data) as Completion);
      return outcome;
    },
  };
}
