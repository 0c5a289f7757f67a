import type { ChatDelta, ChatEngine, ChatOutcome, ChatParams, TokenLogprob, ToolCall } from '../../../protocol/chat';
import type { Channel } from '../../services/channel';
import { readJson, parse } from '../http/body';
import { badRequest } from '../http/errors';
import { dispatchChat, type Services } from '../http/dispatch';
import { requireModel, requireWithinContext } from '../http/models-check';
import { sseResponse } from '../http/sse';
import { addToolCallParts, startChat } from '../../services/chat/chat';
import { CHAT_DEFAULTS, chatParams, type InputMessage } from '../../services/chat/params';
import { chatRequestSchema, type ChatRequest } from './_schema';
import { effortThinks, thinkingOf } from './_thinking';
import { randomId, unixSeconds } from '../../../common/ids';

/** The local engines read text only: another content part (an image, audio, a file) is a 400 naming it. */
function requireTextParts(body: ChatRequest): void {
  body.messages.forEach((message, i) => {
    const content = message.content;
    if (!Array.isArray(content)) return;
    content.forEach((part, j) => {
      if (part.type !== 'text')
        throw badRequest(
          `Content part type '${part.type}' is not supported by this model: only text parts can be read.`,
          `messages[${i}].content[${j}].type`,
          'unsupported_content',
        );
    });
  });
}

/** The template variables and thinking switch of a request (see docs/api.md, thinking). */
function thinkingParams(body: ChatRequest): Pick<ChatParams, 'thinking' | 'template_kwargs'> {
  const kwargs = body.chat_template_kwargs ?? undefined;
  const thinking = thinkingOf([
    { param: 'chat_template_kwargs.enable_thinking', on: kwargs?.enable_thinking ?? undefined },
    { param: 'enable_thinking', on: body.enable_thinking ?? undefined },
    { param: 'reasoning_effort', on: effortThinks(body.reasoning_effort) },
  ]);
  return { thinking, ...(kwargs ? { template_kwargs: kwargs } : {}) };
}

const toParams = (body: ChatRequest): ChatParams =>
  chatParams(
    {
      ...body,
      messages: body.messages as InputMessage[],
      max_tokens: body.max_completion_tokens ?? body.max_tokens,
      ...thinkingParams(body),
    },
    CHAT_DEFAULTS.chat,
  );

/** POST /chat/completions */
export async function POST(ctx: Services, request: Request, path: string): Promise<Response> {
  const { value, raw } = await readJson(request);
  const body = parse(chatRequestSchema, value);
  requireWithinContext(requireModel(body.model, 'chat'), body.max_completion_tokens ?? body.max_tokens);
  return dispatchChat(ctx, { request, path, raw }, body, (engine) => {
    requireTextParts(body);
    return run(engine, toParams(body), body, request.signal);
  });
}

/** Answers once the engine has produced its first output (or finished). */
async function run(engine: ChatEngine, params: ChatParams, body: ChatRequest, signal: AbortSignal): Promise<Response> {
  const { deltas, done, backend, stop } = await startChat(engine, params, signal);
  const id = randomId('chatcmpl-');
  const created = unixSeconds();
  const headers = { 'x-vaani-backend': backend };
  if (!body.stream)
    return Response.json(await collect(deltas, done, { id, created, model: body.model }, body.logprobs === true), {
      headers,
    });

  const usage = body.stream_options?.include_usage === true;
  const chunk = ({ logprobs, ...delta }: ChatDelta & { role?: string }, finish_reason: string | null) => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model: body.model,
    choices: [{ index: 0, delta, logprobs: logprobs ? { content: logprobs, refusal: null } : null, finish_reason }],
    ...(usage ? { usage: null } : {}),
  });
  return sseResponse(
    signal,
    async (sink) => {
      sink.signal.addEventListener('abort', () => stop.abort(sink.signal.reason), { once: true });
      sink.send(chunk({ role: 'assistant', content: '' }, null));
      for await (const delta of deltas) sink.send(chunk(delta, null));
      const outcome = await done;
      sink.send(chunk({}, outcome.finish_reason));
      if (usage)
        sink.send({
          id,
          object: 'chat.completion.chunk',
          created,
          model: body.model,
          choices: [],
          usage: outcome.usage,
        });
    },
    headers,
  );
}

async function collect(
  deltas: Channel<ChatDelta>,
  done: Promise<ChatOutcome>,
  meta: { id: string; created: number; model: string },
  wantLogprobs: boolean,
) {
  let content = '';
  let reasoning = '';
  const calls: ToolCall[] = [];
  const logprobs: TokenLogprob[] = [];
  for await (const delta of deltas) {
    content += delta.content ?? '';
    reasoning += delta.reasoning_content ?? '';
    logprobs.push(...(delta.logprobs ?? []));
    addToolCallParts(calls, delta.tool_calls);
  }
  const outcome = await done;
  const thought = reasoning ? { reasoning_content: reasoning } : {};
  const message = calls.length
    ? { role: 'assistant', content: content || null, ...thought, tool_calls: calls, refusal: null }
    : { role: 'assistant', content, ...thought, refusal: null };
  return {
    ...meta,
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message,
        logprobs: wantLogprobs ? { content: logprobs, refusal: null } : null,
        finish_reason: outcome.finish_reason,
      },
    ],
    usage: outcome.usage,
  };
}
