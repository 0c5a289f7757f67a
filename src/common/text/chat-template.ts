import { Template } from '@huggingface/jinja';
import type { ChatMessage, ToolDefinition } from '../../protocol/chat';

/** The template could not render the messages (it called `raise_exception`, or they lack what it reads). */
export class TemplateRejected extends Error {
  override name = 'TemplateRejected';
}

export interface RenderInput {
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  bosToken?: string;
  eosToken?: string;
  /** The template's thinking mode (`enable_thinking`); off unless asked. */
  thinking?: boolean;
  /** Further template variables (`chat_template_kwargs`); the ones set here win over them. */
  kwargs?: Record<string, unknown>;
}

/** A tokenizer_config `chat_template`: a string, or named templates ('default', 'tool_use'). */
export type TemplateSource = string | { name: string; template: string }[] | Record<string, string>;

/** Picks the template to use: 'tool_use' when tools are given and the model has one, else 'default'. */
export function pickTemplate(source: TemplateSource, withTools: boolean): string {
  if (typeof source === 'string') return source;
  const named = Array.isArray(source) ? Object.fromEntries(source.map((t) => [t.name, t.template])) : source;
  const chosen = (withTools ? named.tool_use : undefined) ?? named.default ?? Object.values(named)[0];
  if (chosen === undefined) throw new Error('The model has an empty chat_template.');
  return chosen;
}

/** Arguments as templates expect them: an object when the JSON string parses, else the string. */
function templateMessage(message: ChatMessage) {
  const tool_calls = message.tool_calls?.map((call) => {
    let args: unknown = call.function.arguments;
    try {
      args = JSON.parse(call.function.arguments);
    } catch {
      /* keep the string */
    }
    return { ...call, function: { name: call.function.name, arguments: args } };
  });
  return { ...message, content: message.content ?? '', ...(tool_calls ? { tool_calls } : {}) };
}

/** Variables the renderer sets itself: `kwargs` cannot replace them. */
const RESERVED = new Set(['messages', 'tools', 'add_generation_prompt', 'enable_thinking', 'bos_token', 'eos_token']);

const extraVariables = (kwargs: Record<string, unknown> = {}) =>
  Object.fromEntries(Object.entries(kwargs).filter(([key]) => !RESERVED.has(key)));

/** A compiled chat template, rendered with a generation prompt. */
export class ChatTemplate {
  private readonly template: Template;

  constructor(readonly source: string) {
    this.template = new Template(source);
  }

  /** `enable_thinking: false` (the default) asks templates that have a thinking mode (Qwen3) for a direct answer. */
  render(input: RenderInput): string {
    try {
      return this.template.render({
        ...extraVariables(input.kwargs),
        messages: input.messages.map(templateMessage),
        ...(input.tools?.length ? { tools: input.tools } : {}),
        add_generation_prompt: true,
        enable_thinking: input.thinking === true,
        bos_token: input.bosToken ?? '',
        eos_token: input.eosToken ?? '',
      });
    } catch (error) {
      throw new TemplateRejected(error instanceof Error ? error.message : String(error));
    }
  }
}
