import { yieldToEvents } from '../../protocol/cancel';
import type { ChatDelta, ChatEvents, ChatOutcome, ChatParams, TokenLogprob, ToolDefinition } from '../../protocol/chat';
import { invalidInput } from '../../protocol/errors';
import { BoundaryCut } from '../../common/text/boundary';
import { TemplateRejected } from '../../common/text/chat-template';
import { fimPrompt, fimTokens, rawStopIds } from '../../common/text/fim';
import { OutputText } from '../../common/text/output';
import { thinkingStart, type ThinkingStart } from '../../common/text/reasoning';
import { closingStage, GrammarRejected, type TokenConstraint } from '../../common/text/grammar/constraint';
import { grammarRequest, type GrammarRequest } from '../../common/text/grammar/request';
import { HERMES_SYNTAX, toolCallSyntaxOf, type ToolCallSyntax } from '../../common/text/tool-calls';
import type { BlockingRun } from './decoder';
import type { LoadedLlm } from './load';
import { applyBias, tokenLogprob, TokenTexts } from './logprobs';
import { Sampler } from './sampler';
import { guide, thinkTags } from './thinking';

function offeredTools(params: ChatParams): ToolDefinition[] | undefined {
  const choice = params.tool_choice;
  if (!params.tools?.length || choice === 'none') return undefined;
  if (typeof choice === 'object') return params.tools.filter((tool) => tool.function.name === choice.function.name);
  return params.tools;
}

/** Fill-in-the-middle ids from the tokenizer's FIM tokens; invalid input when it has none. */
function fimIds(model: LoadedLlm, prefix: string, suffix: string): number[] {
  const fim = fimTokens(model.tokenizer);
  if (!fim)
    throw invalidInput(
      'suffix (fill-in-the-middle) is not supported by this model: its tokenizer has no <|fim_prefix|>, <|fim_suffix|> and <|fim_middle|> tokens. Use a code model with FIM tokens, or send no suffix.',
      'suffix',
      'unsupported_value',
    );
  return fimPrompt(model.tokenizer, fim, prefix, suffix);
}

/** The prompt's ids, and how the answer begins (inside a thinking block the template opened, or not). */
function promptOf(
  model: LoadedLlm,
  params: ChatParams,
  tools: ToolDefinition[] | undefined,
  thinking: boolean,
): { ids: number[]; start: ThinkingStart } {
  if (params.prompt !== undefined && params.suffix !== undefined)
    return { ids: fimIds(model, params.prompt, params.suffix), start: 'off' };
  if (params.prompt !== undefined) return { ids: model.tokenizer.encodeRaw(params.prompt), start: 'off' };
  const template = model.template(tools !== undefined);
  try {
    const text = template.render({
      messages: params.messages,
      tools,
      bosToken: model.tokenizer.bosToken,
      eosToken: model.tokenizer.eosToken,
      thinking,
      kwargs: params.template_kwargs,
    });
    return { ids: model.tokenizer.encode(text), start: thinkingStart(template.source, text) };
  } catch (error) {
    if (error instanceof TemplateRejected)
      throw invalidInput(
        `The model's chat template rejected the messages: ${error.message}`,
        'messages',
        'invalid_messages',
      );
    throw error;
  }
}

/** Answers `max_tokens` (default: the rest of the context), or an invalid_input error when it cannot fit. */
function completionBudget(model: LoadedLlm, params: ChatParams, prompt: number): number {
  const context = model.config.contextLength;
  const budget = params.max_tokens ?? context - prompt;
  if (prompt + Math.max(budget, 1) > context) {
    throw invalidInput(
      `This model's maximum context length is ${context} tokens. However, you requested ${prompt + Math.max(budget, 1)} tokens (${prompt} in the messages, ${Math.max(budget, 1)} in the completion). Please reduce the length of the messages or completion.`,
      'messages',
      'context_length_exceeded',
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
    if (error instanceof GrammarRejected) throw invalidInput(error.message, error.param, 'unsupported_schema');
    throw error;
  }
}

/** `logit_bias` as (id, bias) pairs; an id outside the vocabulary is invalid input. */
function biasOf(params: ChatParams, size: number): [number, number][] {
  return Object.entries(params.logit_bias ?? {}).map(([key, value]) => {
    const id = Number(key);
    if (!/^\d+$/.test(key) || id >= size)
      throw invalidInput(
        `logit_bias: '${key}' is not a token id of this model (0–${size - 1}).`,
        'logit_bias',
        'invalid_value',
      );
    return [id, value];
  });
}

/**
 * Generates one chat completion, streaming deltas; stops early (finish_reason 'stop') once `signal` is aborted.
 * `blocking` wraps each prefill run (the worker's `blockingRuns`: the host then waits for it).
 */
export async function generate(
  model: LoadedLlm,
  params: ChatParams,
  events: ChatEvents,
  signal: AbortSignal,
  blocking?: BlockingRun,
): Promise<ChatOutcome> {
  const tools = offeredTools(params);
  const syntax: ToolCallSyntax | undefined = toolSyntax(model, params, tools);
  const grammar = grammarRequest(params, tools, syntax);
  const tags = thinkTags(model.tokenizer);
  // A constrained answer thinks only where it can be made to close its thinking (the tags are tokens).
  const thinking = params.thinking === true && (!grammar || tags !== undefined);
  const prompt = promptOf(model, params, tools, thinking);
  const budget = completionBudget(model, params, prompt.ids.length);
  const boundary = params.boundary && new BoundaryCut(params.boundary, params.prompt ?? '');
  const callsFirst = grammar?.kind === 'tools' && grammar.json !== undefined;
  const output = new OutputText(
    (ids) => model.tokenizer.decode(ids),
    params.stop,
    syntax,
    boundary,
    prompt.start,
    callsFirst,
  );
  const sampler = new Sampler(params);
  const eos = new Set([...model.config.eosIds, ...(params.prompt === undefined ? [] : rawStopIds(model.tokenizer))]);
  events.onStart({ backend: model.backend, contextLength: model.config.contextLength });

  // A cache the prompt extends whole (its start prefilled ahead, say) is not run again.
  const kept = model.decoder.reuse(prompt.ids);
  const prefilled = await model.decoder.prefill(prompt.ids.slice(kept), signal, blocking);
  const promptTokens = prompt.ids.length;
  if (!prefilled)
    return {
      finish_reason: 'stop',
      usage: { prompt_tokens: promptTokens, completion_tokens: 0, total_tokens: promptTokens },
    };
  let logits = prefilled;
  const bias = biasOf(params, logits.length);
  const constraint = grammar && (await openConstraint(model, grammar, logits.length));
  const texts = new TokenTexts(model.tokenizer);
  // A template that opens <think> itself thinks whatever the request asked.
  const thinksFirst = thinking || prompt.start === 'open' ? tags : undefined;
  // Log-probabilities (the answer's tokens only) wait for the content delta their tokens end up in.
  const pending: TokenLogprob[] = [];
  const emit = (deltas: ChatDelta[]) => {
    for (const delta of deltas) {
      if (pending.length && delta.content) delta.logprobs = pending.splice(0);
      events.onDelta(delta);
    }
  };
  let generated = 0;
  let reasoningTokens = 0;
  let finish: ChatOutcome['finish_reason'] = 'length';
  let stopped = false;
  try {
    while (generated < budget) {
      if (bias.length) applyBias(logits, bias);
      const closing = closingStage(budget - generated, budget);
      const guided = constraint ? await guide(logits, constraint, output, thinksFirst, eos, closing) : false;
      const scored = params.logprobs ? logits.slice() : undefined;
      const token = sampler.next(logits);
      if (guided) constraint?.accept(token);
      if (eos.has(token)) {
        finish = 'stop';
        break;
      }
      generated++;
      const entry = scored && tokenLogprob(scored, token, params.top_logprobs ?? 0, (id) => texts.of(id));
      if (scored) texts.push(token);
      const wasThinking = output.thinking;
      const result = output.push(token);
      if (wasThinking || output.thinking) reasoningTokens++;
      if (entry && output.inAnswer && !wasThinking) pending.push(entry);
      else if (!output.inAnswer) pending.length = 0;
      emit(result.deltas);
      if (result.stopped) {
        finish = 'stop';
        stopped = true;
        break;
      }
      if (generated >= budget) break;
      await yieldToEvents();
      if (signal.aborted) {
        finish = 'stop';
        break;
      }
      logits = await model.decoder.step([token]);
    }
  } finally {
    constraint?.dispose();
  }
  if (!stopped) emit(output.finish());
  if (pending.length) emit([{ content: '', logprobs: pending.splice(0) }]);
  return {
    // A call cut unfinished (dropped by the parser) leaves the finish reason that cut it.
    finish_reason: output.toolCalls > 0 && !output.callCut ? 'tool_calls' : finish,
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: generated,
      total_tokens: promptTokens + generated,
      ...(reasoningTokens ? { completion_tokens_details: { reasoning_tokens: reasoningTokens } } : {}),
    },
  };
}

/**
 * Runs the start of a prompt into the KV cache ahead of the request that will send it whole (a
 * grounded answer's instructions while its passages are being retrieved): `params.messages` rendered
 * as the template renders them, cut after the last message's text, less its last token (which may
 * merge with the text that follows). Returns the tokens the cache now holds of it.
 */
export async function prefillPrefix(
  model: LoadedLlm,
  params: ChatParams,
  signal: AbortSignal,
  blocking?: BlockingRun,
): Promise<number> {
  const last = params.messages.at(-1)?.content;
  // A graph that takes no chunks would run the whole prompt again from an empty cache.
  if (typeof last !== 'string' || !last || !model.decoder.layout.chunkedPrefill) return 0;
  const text = model.template(false).render({
    messages: params.messages,
    bosToken: model.tokenizer.bosToken,
    eosToken: model.tokenizer.eosToken,
    kwargs: params.template_kwargs,
  });
  const end = text.lastIndexOf(last);
  if (end < 0) return 0;
  const ids = model.tokenizer.encode(text.slice(0, end + last.length)).slice(0, -1);
  if (ids.length < 2) return 0;
  // Held already, and nothing after it: kept as it is.
  if (model.decoder.length === ids.length && model.decoder.shared(ids) === ids.length) return ids.length;
  const kept = model.decoder.reuse([...ids, -1]);
  return (await model.decoder.prefill(ids.slice(kept), signal, blocking)) ? ids.length : kept;
}
