import * as v from 'valibot';
import type { ChatDelta, ChatEngine, ChatParams, TokenLogprob } from '../../protocol/chat';
import { EngineError } from '../../protocol/errors';
import { pullCommand } from '../../common/weights';
import { legacyLogprobs, TextOffsets } from './_legacy-logprobs';
import type { Channel } from '../services/channel';
import { parse, readJson } from './http/body';
import { startChat } from '../services/chat/chat';
import { dispatchChat, type Services } from './http/dispatch';
import { requireModel, requireWithinContext } from './http/models-check';
import { sseResponse } from './http/sse';
import { penaltyFields, samplingFields, stopSchema } from './http/sampling';
import { CHAT_DEFAULTS, chatParams } from '../services/chat/params';
import { randomId, unixSeconds } from '../../common/ids';
import { entryOf } from '../../catalogue/families';

/** OpenAI's legacy completions request (`client.completions.create`). */
export const completionsSchema = v.object({
  model: v.pipe(v.string(), v.minLength(1)),
  prompt: v.union(
    [v.string(), v.pipe(v.array(v.string()), v.length(1, 'only one prompt per request (n = 1)'))],
    'must be a string (token-id prompts are not supported)',
  ),
  suffix: v.optional(v.nullable(v.string())),
  max_tokens: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1))), 16),
  ...samplingFields,
  n: v.optional(v.nullable(v.literal(1, 'only n = 1 is supported'))),
  best_of: v.optional(v.nullable(v.literal(1, 'only best_of = 1 is supported'))),
  stream: v.optional(v.nullable(v.boolean()), false),
  stream_options: v.optional(v.nullable(v.object({ include_usage: v.optional(v.boolean(), false) }))),
  logprobs: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(5)))),
  echo: v.optional(v.nullable(v.boolean()), false),
  stop: stopSchema,
  ...penaltyFields,
  user: v.optional(v.string()),
});

type CompletionsRequest = v.InferOutput<typeof completionsSchema>;

const promptOf = (body: CompletionsRequest) => (typeof body.prompt === 'string' ? body.prompt : body.prompt[0]!);

const toParams = (body: CompletionsRequest): ChatParams =>
  chatParams(
    {
      ...body,
      logprobs: body.logprobs != null ? true : undefined,
      top_logprobs: body.logprobs ?? undefined,
      prompt: promptOf(body),
      max_tokens: body.max_tokens ?? 16,
    },
    CHAT_DEFAULTS.completions,
  );

/** POST /completions: raw text continuation on a chat or code model (no chat template). */
export async function POST(ctx: Services, request: Request, path: string): Promise<Response> {
  const { value, raw } = await readJson(request);
  const body = parse(completionsSchema, value);
  requireWithinContext(requireModel(body.model, 'chat', 'code'), body.max_tokens);
  return dispatchChat(ctx, { request, path, raw }, body, async (engine) =>
    runCompletion(completionEngine(ctx, body.model, engine), toParams(body), body, request.signal),
  );
}

/**
 * A model with a `completion` id in the family table (code-v1) runs raw completions and
 * fill-in-the-middle on that base model, whose files are not its own: when they cannot be loaded,
 * the error says so.
 */
export function completionEngine(ctx: Services, model: string, engine: ChatEngine): ChatEngine {
  const baseModel = entryOf(model)?.completion;
  const base = baseModel ? ctx.registry.get('chat', baseModel) : undefined;
  if (!base || !baseModel) return engine;
  return {
    complete: (params, hooks) =>
      base.complete(params, hooks).catch((error: unknown) => {
        throw error instanceof EngineError && error.kind === 'unavailable'
          ? baseUnavailable(error, model, baseModel)
          : error;
      }),
  };
}

function baseUnavailable(error: EngineError, model: string, baseModel: string): EngineError {
  const pull = pullCommand(baseModel);
  const fix = error.message.includes(pull)
    ? ''
    : ` Fetch them with \`${pull}\`, or point createVaani({ models: { '${baseModel}': { baseURL } } }) at them.`;
  return new EngineError(
    error.kind,
    `Completions and fill-in-the-middle on ${model} run on its base model, ${baseModel}, whose files are not ${model}'s and could not be loaded. ${error.message}${fix}`,
    error.code,
    error.param,
  );
}

/** How a text completion is answered: echo, streaming, and extra choice fields from the whole text. */
export interface CompletionShape {
  model: string;
  echo?: boolean | null;
  stream?: boolean | null;
  stream_options?: { include_usage: boolean } | null;
  /** Legacy `logprobs` (0–5 alternatives per token): the generated tokens' log-probabilities, the prompt's not. */
  logprobs?: number | null;
  /** Fields added to the choice of a whole (not streamed) answer. */
  extra?: (text: string) => Record<string, unknown>;
}

/** Runs `params` on the engine and answers in the legacy `text_completion` shape, whole or streamed. */
export async function runCompletion(
  engine: ChatEngine,
  params: ChatParams,
  body: CompletionShape,
  signal: AbortSignal,
): Promise<Response> {
  const { deltas, done, backend, stop } = await startChat(engine, params, signal);
  const meta = {
    id: randomId('cmpl-'),
    object: 'text_completion',
    created: unixSeconds(),
    model: body.model,
  };
  const headers = { 'x-vaani-backend': backend };
  const echo = body.echo ? (params.prompt ?? '') : '';
  const wantLogprobs = body.logprobs != null;
  // Token offsets count from the end of any echoed prompt, across the chunks of a stream.
  const offsets = new TextOffsets(echo.length);
  const choice = (text: string, finish_reason: string | null, tokens: TokenLogprob[] = []) => ({
    text,
    index: 0,
    logprobs: wantLogprobs ? legacyLogprobs(tokens, offsets) : null,
    finish_reason,
  });
  if (!body.stream) {
    const { text: generated, tokens } = await joined(deltas);
    const text = echo + generated;
    const outcome = await done;
    return Response.json(
      {
        ...meta,
        choices: [{ ...choice(text, outcome.finish_reason, tokens), ...body.extra?.(text) }],
        usage: outcome.usage,
      },
      { headers },
    );
  }
  const usage = body.stream_options?.include_usage === true;
  const chunk = (text: string, finish: string | null, tokens: TokenLogprob[] = []) => ({
    ...meta,
    choices: [choice(text, finish, tokens)],
    ...(usage ? { usage: null } : {}),
  });
  return sseResponse(
    signal,
    async (sink) => {
      sink.signal.addEventListener('abort', () => stop.abort(sink.signal.reason), { once: true });
      if (echo) sink.send(chunk(echo, null));
      for await (const delta of deltas) {
        if (!delta.content && !delta.logprobs?.length) continue;
        sink.send(chunk(delta.content ?? '', null, delta.logprobs));
      }
      const outcome = await done;
      sink.send(chunk('', outcome.finish_reason));
      if (usage) sink.send({ ...meta, choices: [], usage: outcome.usage });
    },
    headers,
  );
}

async function joined(deltas: Channel<ChatDelta>): Promise<{ text: string; tokens: TokenLogprob[] }> {
  let text = '';
  const tokens: TokenLogprob[] = [];
  for await (const delta of deltas) {
    text += delta.content ?? '';
    tokens.push(...(delta.logprobs ?? []));
  }
  return { text, tokens };
}
