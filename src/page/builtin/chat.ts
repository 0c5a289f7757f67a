import type { ChatDelta, ChatEvents, ChatMessage, ChatOutcome, ChatParams } from '../../protocol/chat';
import { EngineError, invalidInput, messageOf } from '../../protocol/errors';
import { languageModel, type LanguageModelMessage, type LanguageModelSession } from './prompt-api';

/** Why the browser's model cannot answer these params as asked, and the field (undefined: it can). */
export function unsupported(params: ChatParams): { reason: string; param: string } | undefined {
  const no = (reason: string, param: string) => ({ reason, param });
  if (params.prompt !== undefined) return no('it answers chat messages only, not raw completions', 'prompt');
  if (params.tools?.length && params.tool_choice !== 'none') return no('it cannot call tools', 'tools');
  if (params.messages.some((m) => m.role === 'tool' || m.tool_calls?.length))
    return no('it cannot read tool calls', 'messages');
  if (params.logprobs) return no('it gives no log-probabilities', 'logprobs');
  if (params.logit_bias && Object.keys(params.logit_bias).length) return no('it takes no logit_bias', 'logit_bias');
  if (params.seed !== undefined) return no('it takes no seed', 'seed');
  if (params.temperature === 0) return no('it cannot decode greedily (temperature 0)', 'temperature');
  if (params.top_k !== undefined) return no('it takes no top_k', 'top_k');
  if (params.presence_penalty) return no('it takes no presence_penalty', 'presence_penalty');
  if (params.frequency_penalty) return no('it takes no frequency_penalty', 'frequency_penalty');
  if (params.thinking) return no('it has no thinking mode', 'thinking');
  const first = params.messages.findIndex((m) => m.role !== 'system');
  if (first < 0) return no('a conversation needs a user message', 'messages');
  if (params.messages.slice(first).some((m) => m.role === 'system'))
    return no('it takes system messages only before the conversation', 'messages');
  return undefined;
}

const text = (message: ChatMessage) => message.content ?? '';

/** The leading system messages become the session's initial prompt; the rest is the prompt. */
function conversation(messages: ChatMessage[]) {
  const first = messages.findIndex((m) => m.role !== 'system');
  const system = messages.slice(0, first).map(text).join('\n\n');
  const rest = messages.slice(first);
  const input: LanguageModelMessage[] = rest.map((m, i) => ({
    role: m.role as 'user' | 'assistant',
    content: text(m),
    ...(m.role === 'assistant' && i === rest.length - 1 ? { prefix: true } : {}),
  }));
  return { initialPrompts: system ? [{ role: 'system' as const, content: system }] : [], input };
}

function constraint(params: ChatParams): object | undefined {
  const format = params.response_format;
  if (format?.type === 'json_schema') return format.json_schema.schema ?? { type: 'object' };
  if (format?.type === 'json_object') return { type: 'object' };
  return undefined;
}

/** A DOMException of the Prompt API as the EngineError the routes answer (or fall back on). */
function failure(error: unknown, signal: AbortSignal): unknown {
  if (signal.aborted) return signal.reason ?? error;
  const name = (error as { name?: string })?.name;
  if (name === 'QuotaExceededError')
    return new EngineError(
      'invalid_input',
      `The browser's model: ${messageOf(error)}`,
      'context_length_exceeded',
      'messages',
    );
  return new EngineError(
    'unavailable',
    `The browser's built-in model failed: ${messageOf(error)}`,
    'model_unavailable',
  );
}

/** The first stop string in `text`, as its index (or -1). */
function stopAt(text: string, stops: string[]): number {
  const hits = stops.map((stop) => text.indexOf(stop)).filter((at) => at >= 0);
  return hits.length ? Math.min(...hits) : -1;
}

/** Cuts `tail` off `text` until the whole is at most `limit` tokens (chunks are a few tokens). */
async function fit(session: LanguageModelSession, kept: string, tail: string, limit: number): Promise<string> {
  const points = [...tail];
  while (points.length && (await session.measureContextUsage(kept + points.join(''))) > limit) points.pop();
  return points.join('');
}

/**
 * Answers `params` on the browser's built-in model: streamed deltas, stop strings, max_tokens and
 * JSON Schema output (`responseConstraint`); throws an EngineError (`unsupported`) for a request it
 * cannot answer as asked, before anything runs, so that routing tries the next engine.
 */
export async function completeBuiltin(
  params: ChatParams,
  signal: AbortSignal,
  events: ChatEvents,
): Promise<ChatOutcome> {
  const api = languageModel();
  if (!api)
    throw new EngineError(
      'unavailable',
      'This browser has no built-in language model (Prompt API).',
      'model_unavailable',
    );
  const no = unsupported(params);
  if (no)
    throw invalidInput(
      `The browser's built-in model cannot answer this request: ${no.reason}.`,
      no.param,
      'unsupported_parameter',
    );
  const availability = await api.availability({
    expectedInputs: [{ type: 'text' }],
    expectedOutputs: [{ type: 'text' }],
  });
  if (availability === 'unavailable')
    throw new EngineError(
      'unavailable',
      "The browser's built-in model is unavailable on this device.",
      'model_unavailable',
    );
  const { initialPrompts, input } = conversation(params.messages);
  let session: LanguageModelSession;
  try {
    session = await api.create({
      initialPrompts,
      signal,
      expectedInputs: [{ type: 'text' }],
      expectedOutputs: [{ type: 'text' }],
    });
  } catch (error) {
    throw failure(error, signal);
  }
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const responseConstraint = constraint(params);
    const options = { signal: stop.signal, ...(responseConstraint ? { responseConstraint } : {}) };
    const promptTokens = session.contextUsage + (await session.measureContextUsage(input, options));
    events.onStart({ backend: 'builtin', contextLength: session.contextWindow });
    let out = '';
    let finish: ChatOutcome['finish_reason'] = 'stop';
    let reader: ReadableStreamDefaultReader<string>;
    try {
      reader = session.promptStreaming(input, options).getReader();
    } catch (error) {
      throw failure(error, signal);
    }
    for (;;) {
      const { done, value } = await reader.read().catch((error: unknown) => Promise.reject(failure(error, signal)));
      if (done) break;
      let piece = value;
      const at = stopAt(out + piece, params.stop);
      if (at >= 0) piece = (out + piece).slice(out.length, at);
      if (params.max_tokens !== undefined && (await session.measureContextUsage(out + piece)) > params.max_tokens) {
        piece = await fit(session, out, piece, params.max_tokens);
        finish = 'length';
      }
      if (piece) {
        out += piece;
        const delta: ChatDelta = { content: piece };
        await events.onDelta(delta);
      }
      if (at >= 0 || finish === 'length') {
        await reader.cancel().catch(() => undefined);
        break;
      }
    }
    const completion = out ? await session.measureContextUsage(out) : 0;
    return {
      finish_reason: finish,
      usage: { prompt_tokens: promptTokens, completion_tokens: completion, total_tokens: promptTokens + completion },
    };
  } finally {
    signal.removeEventListener('abort', onAbort);
    session.destroy();
  }
}
