import { validate } from './validate';
import type { ChatEngine, ChatParams, ToolCall, ToolChoice, ToolDefinition, Usage } from '../../../protocol/chat';
import { abortError } from '../../../protocol/cancel';
import { addToolCallParts, startChat } from '../chat/chat';

/** A tool the loop offers: its definition for the model, and how the page runs it (absent: nothing runs it). */
export interface AgentTool {
  definition: ToolDefinition;
  execute?: (args: Record<string, unknown>, signal: AbortSignal) => unknown;
}

export interface ToolCallRecord {
  id: string;
  name: string;
  arguments: string;
  output: string;
  is_error: boolean;
  duration_ms: number;
}

export interface StepRecord {
  index: number;
  content: string;
  tool_calls: ToolCallRecord[];
  finish_reason: string;
  usage: Usage;
  /** The model's time for this step, and the step's whole time (model + tools + the loop). */
  model_ms: number;
  duration_ms: number;
}

export type AgentEvent =
  | { type: 'step.started'; step: number }
  | { type: 'message.delta'; step: number; delta: string }
  | { type: 'tool_call'; step: number; call: { id: string; name: string; arguments: string } }
  | ({ type: 'tool_result'; step: number } & ToolCallRecord);

export interface AgentResult {
  status: 'completed' | 'incomplete';
  incomplete_details: { reason: 'max_steps' | 'max_output_tokens' } | null;
  output_text: string;
  steps: StepRecord[];
  usage: Usage;
}

/** **Choice**: a tool's output reaches the model as at most this many characters. */
export const OUTPUT_LIMIT = 16_384;

const ms = (since: number) => Math.round((performance.now() - since) * 10) / 10;

/**
 * A tool's output as data for the model: text (JSON for other values), cut to OUTPUT_LIMIT, with the
 * chat markup it could use to pose as another turn (`<|…|>` tokens, tool-call tags) defused.
 */
export function asToolOutput(value: unknown): string {
  const text = typeof value === 'string' ? value : value === undefined ? '' : (JSON.stringify(value) ?? String(value));
  const cut =
    text.length > OUTPUT_LIMIT
      ? `${text.slice(0, OUTPUT_LIMIT)}\n[truncated: ${text.length - OUTPUT_LIMIT} more characters]`
      : text;
  return cut.replace(/<\|/g, '‹|').replace(/<(\/?)(tool_call|tool_response|tools)>/g, '‹$1$2›');
}

/** Rejects when the signal aborts (handled, so an abort after the race is no unhandled rejection). */
function rejected(signal: AbortSignal): Promise<never> {
  const promise = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(abortError(signal));
    signal.addEventListener('abort', () => reject(abortError(signal)), { once: true });
  });
  promise.catch(() => {});
  return promise;
}

/** Runs one call: unknown tools, bad JSON, schema problems and throwing tools become error outputs for the model. */
async function execute(call: ToolCall, tools: AgentTool[], signal: AbortSignal): Promise<ToolCallRecord> {
  const started = performance.now();
  const { name, arguments: raw } = call.function;
  const record = (output: string, is_error: boolean): ToolCallRecord => ({
    id: call.id,
    name,
    arguments: raw,
    output,
    is_error,
    duration_ms: ms(started),
  });
  const tool = tools.find((candidate) => candidate.definition.function.name === name);
  if (!tool?.execute) {
    const names = tools.filter((t) => t.execute).map((t) => t.definition.function.name);
    return record(
      `Error: no tool named '${name}' runs in this page. Available tools: ${names.join(', ') || 'none'}.`,
      true,
    );
  }
  let args: unknown;
  try {
    args = JSON.parse(raw || '{}');
  } catch (error) {
    return record(`Error: the arguments are not valid JSON (${(error as Error).message}).`, true);
  }
  const schema = tool.definition.function.parameters ?? { type: 'object' };
  const problems = validate(args, { type: 'object', ...schema });
  if (problems.length) return record(`Error: invalid arguments: ${problems.join('; ')}.`, true);
  try {
    return record(asToolOutput(await tool.execute(args as Record<string, unknown>, signal)), false);
  } catch (error) {
    if (signal.aborted) throw abortError(signal);
    return record(asToolOutput(`Error: ${error instanceof Error ? error.message : String(error)}`), true);
  }
}

export interface AgentOptions {
  maxSteps: number;
  signal: AbortSignal;
  emit(event: AgentEvent): void;
}

/**
 * The agent loop: the model with the tools → its calls run concurrently in the page (results
 * returned in call order) → again, until an answer without calls (`incomplete` when `max_tokens`
 * cut it, a required call included), `maxSteps`, or abort. After a
 * step with calls `tool_choice` goes back to `auto` (**Choice**, as the OpenAI Agents SDK's
 * reset_tool_choice), so a required first call cannot loop for ever.
 */
export async function runAgent(
  engine: ChatEngine,
  params: ChatParams,
  tools: AgentTool[],
  { maxSteps, signal, emit }: AgentOptions,
): Promise<AgentResult> {
  const messages = [...params.messages];
  const steps: StepRecord[] = [];
  const usage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  const definitions = tools.length ? tools.map((tool) => tool.definition) : undefined;
  let choice: ToolChoice | undefined = params.tool_choice;
  let content = '';
  for (let index = 0; index < maxSteps; index++) {
    const started = performance.now();
    emit({ type: 'step.started', step: index });
    const step = {
      ...params,
      messages: [...messages],
      tools: choice === 'none' ? undefined : definitions,
      tool_choice: choice,
    };
    const { deltas, done } = await startChat(engine, step, signal);
    content = '';
    const calls: ToolCall[] = [];
    for await (const delta of deltas) {
      if (delta.content) {
        content += delta.content;
        emit({ type: 'message.delta', step: index, delta: delta.content });
      }
      addToolCallParts(calls, delta.tool_calls);
    }
    const outcome = await done;
    const modelMs = ms(started);
    for (const key of ['prompt_tokens', 'completion_tokens', 'total_tokens'] as const) usage[key] += outcome.usage[key];
    const record: StepRecord = {
      index,
      content,
      tool_calls: [],
      finish_reason: outcome.finish_reason,
      usage: outcome.usage,
      model_ms: modelMs,
      duration_ms: modelMs,
    };
    steps.push(record);
    if (!calls.length)
      return outcome.finish_reason === 'length'
        ? {
            status: 'incomplete',
            incomplete_details: { reason: 'max_output_tokens' },
            output_text: content,
            steps,
            usage,
          }
        : { status: 'completed', incomplete_details: null, output_text: content, steps, usage };

    messages.push({ role: 'assistant', content: content || null, tool_calls: calls });
    for (const call of calls)
      emit({
        type: 'tool_call',
        step: index,
        call: { id: call.id, name: call.function.name, arguments: call.function.arguments },
      });
    const running = calls.map((call) =>
      execute(call, tools, signal).then((result) => {
        emit({ type: 'tool_result', step: index, ...result });
        return result;
      }),
    );
    record.tool_calls = await Promise.race([Promise.all(running), rejected(signal)]);
    for (const result of record.tool_calls)
      messages.push({ role: 'tool', tool_call_id: result.id, content: result.output });
    record.duration_ms = ms(started);
    if (choice !== 'none') choice = 'auto';
  }
  return { status: 'incomplete', incomplete_details: { reason: 'max_steps' }, output_text: content, steps, usage };
}
