import { ApiError } from '../../api/errors';
import type { ChatDelta, ChatOutcome, ChatParams, ToolDefinition } from '../../protocol/chat';
import { TemplateRejected } from '../../text/chat-template';
import { OutputText } from '../../text/output';
import { closingStage, GrammarRejected, type TokenConstraint } from '../../text/grammar/constraint';
import { grammarRequest, type GrammarRequest } from '../../text/grammar/request';
import { HERMES_SYNTAX, toolCallSyntaxOf, type ToolCallSyntax } from '../../text/tool-calls';
import type { LoadedLlm } from './load';
import { Sampler } from './sampler';

export interface GenerationEvents {
  start(info: { backend: string }): void;
  delta(delta: ChatDelta): void;
}

/** Lets queued messages (a cancel, the host's ping) run between steps. */
const yieldToEvents = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });

function offeredTools(params: ChatParams): ToolDefinition[] | undefined {
  const choice = params.tool_choice;
  if (!params.tools?.length || choice === 'none') return undefined;
  if (typeof choice === 'object') return params.tools.filter((tool) => tool.function.name === choice.function.name);
  return params.tools;
}

function promptIds(model: LoadedLlm, params: ChatParams, tools: ToolDefinition[] | undefined): number[] {
  const template = model.template(tools !== undefined);
  try {
    const text = template.render({
      messages: params.messages,
      tools,
      bosToken: model.tokenizer.bosToken,
      eosToken: model.tokenizer.eosToken,
    });
    return model.tokenizer.encode(text);
  } catch (error) {
    if (error instanceof TemplateRejected)
      throw new ApiError(
        400,
        `The model's chat template rejected the messages: ${error.message}`,
        'invalid_messages',
        'messages',
      );
    throw error;
  }
}

/** Answers `max_tokens` (default: the rest of the context), or a 400 when it cannot fit. */
function completionBudget(model: LoadedLlm, params: ChatParams, prompt: number): number {
  const context = model.config.contextLength;
  const budget = params.max_tokens ?? context - prompt;
  if (prompt + Math.max(budget, 1) > context) {
    throw new ApiError(
      400,
      `This model's maximum context length is ${context} tokens. However, you requested ${prompt + Math.max(budget, 1)} tokens (${prompt} in the messages, ${Math.max(budget, 1)} in the completion). Please reduce the length of the messages or completion.`,
      'context_length_exceeded',
      'messages',
    );
  }
  return budget;
}

/**
 * The tool-call syntax of the model's template; when a call is required and the template teaches
 * none, Hermes (the grammar then writes it, so the model need not know it).
 */
function toolSyntax(model: LoadedLlm, params: ChatParams, tools: ToolDefinition[] | undefined) {
  if (!tools) return undefined;
  const required = params.tool_choice === 'required' || typeof params.tool_choice === 'object';
  return toolCallSyntaxOf(model.template(true).source) ?? (required ? HERMES_SYNTAX : undefined);
}

async function openConstraint(model: LoadedLlm, request: GrammarRequest, size: number): Promise<TokenConstraint> {
  try {
    return await model.grammars.open(request, size);
  } catch (error) {
    if (error instanceof GrammarRejected)
      throw new ApiError(
        400,
        error.message,
        'unsupported_schema',
        request.kind === 'json' ? 'response_format' : 'tools',
      );
    throw error;
  }
}

/** Generates one chat completion, streaming deltas; stops early when `cancelled()` turns true. */
export async function generate(
  model: LoadedLlm,
  params: ChatParams,
  events: GenerationEvents,
  cancelled: () => boolean,
): Promise<ChatOutcome> {
  const tools = offeredTools(params);
  const prompt = promptIds(model, params, tools);
  const budget = completionBudget(model, params, prompt.length);
  const syntax: ToolCallSyntax | undefined = toolSyntax(model, params, tools);
  const grammar = grammarRequest(params, tools, syntax);
  const output = new OutputText((ids) => model.tokenizer.decode(ids), params.stop, syntax);
  const sampler = new Sampler(params);
  const eos = new Set(model.config.eosIds);
  events.start({ backend: model.backend });

  model.decoder.reset();
  let logits = await model.decoder.step(prompt);
  const constraint = grammar && (await openConstraint(model, grammar, logits.length));
  let generated = 0;
  let finish: ChatOutcome['finish_reason'] = 'length';
  let stopped = false;
  try {
    while (generated < budget) {
      if (constraint) await constraint.mask(logits, closingStage(budget - generated, budget));
      const token = sampler.next(logits);
      constraint?.accept(token);
      if (eos.has(token)) {
        finish = 'stop';
        break;
      }
      generated++;
      const result = output.push(token);
      for (const delta of result.deltas) events.delta(delta);
      if (result.stopped) {
        finish = 'stop';
        stopped = true;
        break;
      }
      if (generated >= budget) break;
      await yieldToEvents();
      if (cancelled()) {
        finish = 'stop';
        break;
      }
      logits = await model.decoder.step([token]);
    }
  } finally {
    constraint?.dispose();
  }
  if (!stopped) for (const delta of output.finish()) events.delta(delta);
  return {
    finish_reason: output.toolCalls > 0 ? 'tool_calls' : finish,
    usage: { prompt_tokens: prompt.length, completion_tokens: generated, total_tokens: prompt.length + generated },
  };
}
