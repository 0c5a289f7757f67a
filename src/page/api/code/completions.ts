import * as v from 'valibot';
import { defaultModel } from '../../../catalogue/families';
import type { ChatParams } from '../../../protocol/chat';
import { parse, readJson } from '../http/body';
import { completionEngine, completionsSchema, runCompletion } from '../completions';
import { dispatchChat, type Services } from '../http/dispatch';
import { requireModel, requireWithinContext } from '../http/models-check';
import { CHAT_DEFAULTS, chatParams } from '../../services/chat/params';
import { CODE_MODES, lastCodeBlock, modeMessages, type CodeMode } from '../../services/code/prompts';

const oneOf = <T extends string>(values: readonly T[]) =>
  v.pipe(
    v.string(),
    v.check((value) => values.includes(value as T), `must be one of ${values.map((x) => `'${x}'`).join(', ')}`),
    v.transform((value) => value as T),
  );

/** OpenAI's legacy completions request plus `mode`, `language` and `boundary` (docs/api.md). */
const codeSchema = v.object({
  ...completionsSchema.entries,
  model: v.optional(v.pipe(v.string(), v.minLength(1)), defaultModel('/code/completions')),
  max_tokens: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1)))),
  mode: v.optional(oneOf(CODE_MODES), 'complete'),
  language: v.optional(v.pipe(v.string(), v.maxLength(64))),
  boundary: v.optional(oneOf(['none', 'line', 'block'] as const), 'none'),
});

type CodeRequest = v.InferOutput<typeof codeSchema>;

/** Default budgets: a completion is a few lines, an explanation or a rewrite a page. */
const DEFAULT_MAX_TOKENS: Record<CodeMode, number> = { complete: 128, explain: 512, debug: 768, optimise: 768 };

function toParams(body: CodeRequest): ChatParams {
  const prompt = typeof body.prompt === 'string' ? body.prompt : body.prompt[0]!;
  const { model, temperature, top_p, stop, seed, presence_penalty, frequency_penalty } = body;
  const max_tokens = body.max_tokens ?? DEFAULT_MAX_TOKENS[body.mode];
  const common = { model, temperature, top_p, max_tokens, stop, seed, presence_penalty, frequency_penalty };
  if (body.mode === 'complete')
    return chatParams(
      { ...common, prompt, suffix: body.suffix, boundary: body.boundary === 'none' ? undefined : body.boundary },
      CHAT_DEFAULTS.code,
    );
  return chatParams(
    {
      ...common,
      messages: modeMessages(body.mode, prompt + (body.suffix ?? ''), body.language),
    },
    CHAT_DEFAULTS.code,
  );
}

/**
 * POST /code/completions: `complete` continues `prompt` (or fills between `prompt` and `suffix`) on
 * code-v1's base model; `explain`, `debug` and `optimise` ask its instruct model. Legacy
 * completions shape; debug and optimise answers also carry the code block to apply.
 */
export async function POST(ctx: Services, request: Request, path: string): Promise<Response> {
  const { value, raw } = await readJson(request);
  const body = parse(codeSchema, value);
  requireWithinContext(requireModel(body.model, 'code'), body.max_tokens);
  const params = toParams(body);
  const applies = body.mode === 'debug' || body.mode === 'optimise';
  return dispatchChat(ctx, { request, path, raw }, body, (engine) =>
    runCompletion(
      body.mode === 'complete' ? completionEngine(ctx, body.model, engine) : engine,
      params,
      {
        ...body,
        echo: body.mode === 'complete' && body.echo,
        extra: applies ? (text) => ({ code: lastCodeBlock(text) }) : undefined,
      },
      request.signal,
    ),
  );
}
