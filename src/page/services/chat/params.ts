import type { ChatMessage, ChatParams, ResponseFormat, Role, ToolChoice, ToolDefinition } from '../../../protocol/chat';
import { invalidInput } from '../../../protocol/errors';
import { checkSchema } from '../../../common/text/grammar/schema';
import { requestedSchemas } from '../../../common/text/grammar/request';

/** The routes that run a chat model, each with its row in {@link CHAT_DEFAULTS}. */
export type ChatRoute = 'chat' | 'completions' | 'responses' | 'agents' | 'data_query' | 'code';

export interface SamplingDefaults {
  temperature: number;
  top_p: number;
  presence_penalty: number;
  frequency_penalty: number;
}

const SPEC = { temperature: 0.7, top_p: 1, presence_penalty: 0, frequency_penalty: 0 } as const;

/**
 * The one table of sampling defaults (docs/api.md): the service spec's temperature on every chat
 * route; code completion samples cooler, its one documented exception.
 */
export const CHAT_DEFAULTS: Readonly<Record<ChatRoute, SamplingDefaults>> = {
  chat: SPEC,
  completions: SPEC,
  responses: SPEC,
  agents: SPEC,
  data_query: SPEC,
  code: { ...SPEC, temperature: 0.2 },
};

type Content = string | { type: string; text?: string }[] | null | undefined;

/** A message as a route hands it in: OpenAI's roles (`developer` included) and text content parts. */
export interface InputMessage extends Omit<ChatMessage, 'role' | 'content'> {
  role: Role | 'developer';
  content?: Content;
}

/** What every dialect's route hands in after its own parsing (absent or null: the route's default). */
export interface ChatInput extends Pick<ChatParams, 'model' | 'top_k' | 'boundary' | 'thinking' | 'template_kwargs'> {
  messages?: InputMessage[];
  /** A system message put first. */
  instructions?: string | null;
  prompt?: string;
  suffix?: string | null;
  temperature?: number | null;
  top_p?: number | null;
  max_tokens?: number | null;
  stop?: string | string[] | null;
  seed?: number | null;
  presence_penalty?: number | null;
  frequency_penalty?: number | null;
  tools?: ToolDefinition[];
  tool_choice?: ToolChoice;
  parallel_tool_calls?: boolean | null;
  response_format?: ResponseFormat | null;
  logprobs?: boolean | null;
  top_logprobs?: number | null;
  logit_bias?: Record<string, number> | null;
}

const textOf = (content: Content): string | null =>
  content == null ? null : typeof content === 'string' ? content : content.map((part) => part.text ?? '').join('');

/** `stop` as the engines take it: a list. */
export const stopList = (stop: string | string[] | null | undefined): string[] =>
  stop == null ? [] : typeof stop === 'string' ? [stop] : stop;

/**
 * The one request → ChatParams mapping: `developer` is `system`, content parts are joined text,
 * `stop` is a list, `tool_choice: 'none'` sends no tools, and a strict schema the grammar cannot
 * enforce is a 400 naming it.
 */
export function chatParams(input: ChatInput, defaults: SamplingDefaults = CHAT_DEFAULTS.chat): ChatParams {
  const messages = (input.messages ?? []).map((m): ChatMessage => ({
    ...m,
    role: m.role === 'developer' ? 'system' : m.role,
    content: textOf(m.content),
  }));
  const params: ChatParams = {
    model: input.model,
    messages: input.instructions ? [{ role: 'system', content: input.instructions }, ...messages] : messages,
    temperature: input.temperature ?? defaults.temperature,
    top_p: input.top_p ?? defaults.top_p,
    stop: stopList(input.stop),
    presence_penalty: input.presence_penalty ?? defaults.presence_penalty,
    frequency_penalty: input.frequency_penalty ?? defaults.frequency_penalty,
  };
  const optional: Partial<ChatParams> = {
    prompt: input.prompt,
    suffix: input.suffix ?? undefined,
    boundary: input.boundary,
    top_k: input.top_k,
    max_tokens: input.max_tokens ?? undefined,
    seed: input.seed ?? undefined,
    tools: input.tool_choice === 'none' ? undefined : input.tools,
    tool_choice: input.tool_choice,
    parallel_tool_calls: input.parallel_tool_calls ?? undefined,
    response_format: input.response_format ?? undefined,
    logprobs: input.logprobs ?? undefined,
    top_logprobs: input.top_logprobs ?? undefined,
    logit_bias: input.logit_bias ?? undefined,
    thinking: input.thinking,
    template_kwargs: input.template_kwargs,
  };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) Object.assign(params, { [key]: value });
  requireEnforceable(params);
  return params;
}

/** A strict schema (response_format or a strict function) with keywords the grammar cannot enforce is a 400 naming them. */
export function requireEnforceable(params: ChatParams): void {
  for (const { param, schema, strict } of requestedSchemas(params)) {
    const { problems } = checkSchema(schema, strict);
    if (strict && problems.length)
      throw invalidInput(`Invalid schema for ${param}: ${problems.join('; ')}.`, param, 'unsupported_schema');
  }
}
