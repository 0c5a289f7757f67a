import type {
  ChatDelta,
  ChatEngine,
  ChatMessage,
  ChatOutcome,
  ChatParams,
  TokenLogprob,
  ToolCall,
} from '../../../protocol/chat';
import type { Channel } from '../../services/channel';
import { checkSchema } from '../../../common/text/grammar/schema';
import { requestedSchemas } from '../../../common/text/grammar/request';
import { readJson, parse } from '../http/body';
import { badRequest } from '../http/errors';
import { dispatchChat, type Services } from '../http/dispatch';
import { requireModel, requireWithinContext } from '../http/models-check';
import { sseResponse } from '../http/sse';
import { addToolCallParts, startChat } from '../../services/chat/chat';
import { chatRequestSchema, type ChatRequest } from './_schema';
import { effortThinks, thinkingOf } from './_thinking';
import { randomId, unixSeconds } from '../../../common/ids';

type Content = string | { type: string; text?: string }[] | null | undefined;

const text = (content: Content) =>
  content == null ? null : typeof content === 'string' ? content : content.map((part) => part.text ?? '').join('');

/** The local engines read text only: another content part (an image, audio, a file) is a 400 naming it. */
function requireTextParts(body: ChatRequest): void {
  body.messages.forEach((message, i) => {
    const content = message.content as Content;
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

function toParams(body: ChatRequest): ChatParams {
  const stop = body.stop == null ? [] : typeof body.stop === 'string' ? [body.stop] : body.stop;
  return {
    model: body.model,
    messages: body.messages.map(
      (m) => ({ ...m, role: m.role === 'developer' ? 'system' : m.role, content: text(m.content) }) as ChatMessage,
    ),
    temperature: body.temperature ?? 0.7,
    top_p: body.top_p ?? 1,
    top_k: body.top_k,
    max_tokens: body.max_completion_tokens ?? body.max_tokens ?? undefined,
    stop,
    seed: body.seed ?? undefined,
    presence_penalty: body.presence_penalty ?? 0,
    frequency_penalty: body.frequency_penalty ?? 0,
    tools: body.tool_choice === 'none' ? undefined : body.tools,
    tool_choice: body.tool_choice,
    parallel_tool_calls: body.parallel_tool_calls ?? undefined,
    response_format: body.response_format ?? undefined,
    logprobs: body.logprobs ?? undefined,
    top_logprobs: body.top_logprobs ?? undefined,
    logit_bias: body.logit_bias ?? undefined,
    ...thinkingParams(body),
  };
}

/** A strict schema (response_format or a strict function) with keywords the grammar cannot enforce is a 400 naming them. */
export function requireEnforceable(params: ChatParams): void {
  for (const { param, schema, strict } of requestedSchemas(params)) {
    const { problems } = checkSchema(schema, strict);
    if (strict && problems.length)
      throw badRequest(`Invalid schema for ${param}: ${problems.join('; ')}.`, param, 'unsupported_schema');
  }
}

/** POST /chat/completions */
export async function POST(ctx: Services, request: Request, path: string): Promise<Response> {
  const { value, raw } = await readJson(request);
  const body = parse(chatRequestSchema, value);
  requireWithinContext(requireModel(body.model, 'chat'), body.max_completion_tokens ?? body.max_tokens);
  return dispatchChat(ctx, { request, path, raw }, body, (engine) => {
    requireTextParts(body);
    const params = toParams(body);
    requireEnforceable(params);
    return run(engine, params, body, request.signal);
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
