import { validate } from './validate';
import type { NeedsApproval } from './registry';
import type {
  ChatEngine,
  ChatMessage,
  ChatParams,
  ToolCall,
  ToolChoice,
  ToolDefinition,
  Usage,
} from '../../../protocol/chat';
import type { ApprovalCall } from '../../../protocol/approval';
import { abortError } from '../../../protocol/cancel';
import { addToolCallParts, startChat } from '../chat/chat';

/** A tool the loop offers: its definition for the model, and how the page runs it (absent: nothing runs it). */
export interface AgentTool {
  definition: ToolDefinition;
  execute?: (args: Record<string, unknown>, signal: AbortSignal) => unknown;
  /** Whether a call must be approved before it runs (default true: only tools that say so run unasked). */
  needsApproval?: NeedsApproval;
  annotations?: Record<string, unknown>;
}

/** An answer to an approval: run the call, or give the model the denial (with the reason) as its result. */
export interface Decision {
  approve: boolean;
  reason?: string | null;
}

export interface ToolCallRecord {
  id: string;
  name: string;
  arguments: string;
  output: string;
  is_error: boolean;
  duration_ms: number;
  /** null: the call needed no approval. */
  approval: 'approved' | 'denied' | null;
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
  | ({ type: 'tool_result'; step: number } & ToolCallRecord)
  | { type: 'approval_request'; step: number; call: PendingCall };

export interface PendingCall {
  id: string;
  name: string;
  arguments: string;
}

export interface AgentResult {
  status: 'completed' | 'incomplete';
  incomplete_details: { reason: 'max_steps' | 'max_output_tokens' | 'approval_required' } | null;
  output_text: string;
  steps: StepRecord[];
  usage: Usage;
  /** The calls waiting for approval (`approval_required`): nothing of their step has run. */
  pending: PendingCall[];
}

/** Where a run stands, to go on with after approvals: the conversation, and the step's calls still to run. */
export interface AgentState {
  messages: ChatMessage[];
  steps: StepRecord[];
  usage: Usage;
  pending: ToolCall[] | null;
  /** Decisions already taken for the pending step's calls, by call id. */
  decided: Record<string, Decision>;
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

type Prepared = { call: ToolCall; tool: AgentTool; args: Record<string, unknown> } | { call: ToolCall; error: string };

/** A call checked before anything runs: unknown tools, bad JSON and schema problems become error outputs for the model. */
function prepare(call: ToolCall, tools: AgentTool[]): Prepared {
  const { name, arguments: raw } = call.function;
  const tool = tools.find((candidate) => candidate.definition.function.name === name);
  if (!tool?.execute) {
    const names = tools.filter((t) => t.execute).map((t) => t.definition.function.name);
    return {
      call,
      error: `Error: no tool named '${name}' runs in this page. Available tools: ${names.join(', ') || 'none'}.`,
    };
  }
  let args: unknown;
  try {
    args = JSON.parse(raw || '{}');
  } catch (error) {
    return { call, error: `Error: the arguments are not valid JSON (${(error as Error).message}).` };
  }
  const schema = tool.definition.function.parameters ?? { type: 'object' };
  const problems = validate(args, { type: 'object', ...schema });
  if (problems.length) return { call, error: `Error: invalid arguments: ${problems.join('; ')}.` };
  return { call, tool, args: args as Record<string, unknown> };
}

/** Whether a checked call needs approval (a policy that throws: it does). */
async function needsApproval(tool: AgentTool, args: Record<string, unknown>): Promise<boolean> {
  const policy = tool.needsApproval ?? true;
  if (typeof policy === 'boolean') return policy;
  try {
    return (await policy(args)) !== false;
  } catch {
    return true;
  }
}

/** What the model reads for a denied call. */
export const denial = (name: string, reason?: string | null) =>
  `Error: this call was not approved, so '${name}' did not run${reason ? ` (reason: ${reason})` : ''}.`;

/** Runs one decided call; a throwing tool becomes an error output for the model. */
async function runCall(item: Prepared, decision: Decision | undefined, signal: AbortSignal): Promise<ToolCallRecord> {
  const started = performance.now();
  const approval = decision ? (decision.approve ? 'approved' : 'denied') : null;
  const record = (output: string, is_error: boolean): ToolCallRecord => ({
    id: item.call.id,
    name: item.call.function.name,
    arguments: item.call.function.arguments,
    output,
    is_error,
    duration_ms: ms(started),
    approval,
  });
  if ('error' in item) return record(item.error, true);
  if (decision && !decision.approve)
    return record(asToolOutput(denial(item.call.function.name, decision.reason)), true);
  try {
    return record(asToolOutput(await item.tool.execute!(item.args, signal)), false);
  } catch (error) {
    if (signal.aborted) throw abortError(signal);
    return record(asToolOutput(`Error: ${error instanceof Error ? error.message : String(error)}`), true);
  }
}

export interface AgentOptions {
  maxSteps: number;
  signal: AbortSignal;
  emit(event: AgentEvent): void;
  /**
   * Decides a call that needs approval and has no decision yet in the state: a decision, or
   * undefined to stop the run with an approval request. Absent: every such call is asked of the app.
   */
  approve?: (call: ApprovalCall, tool: AgentTool) => Promise<Decision | undefined>;
  /** A run stopped for approvals, to go on with (its decisions added to `decided`). */
  resume?: AgentState;
}

/**
 * Decides a step's calls, then runs them (concurrently, results in call order) unless one still
 * waits for the app: then nothing of the step runs and the waiting calls are returned.
 */
async function settle(
  calls: ToolCall[],
  tools: AgentTool[],
  state: AgentState,
  record: StepRecord,
  { signal, emit, approve }: AgentOptions,
): Promise<PendingCall[]> {
  const prepared = calls.map((call) => prepare(call, tools));
  const decisions = new Map<string, Decision | undefined>();
  const waiting: PendingCall[] = [];
  for (const item of prepared) {
    if ('error' in item || !(await needsApproval(item.tool, item.args))) continue;
    const { id, function: fn } = item.call;
    let decision: Decision | undefined = state.decided[id];
    if (!decision && approve) {
      const call = { id, name: fn.name, arguments: fn.arguments, args: item.args };
      decision = await approve(call, item.tool).catch((error: unknown) => ({
        approve: false,
        reason: `the approval hook failed: ${error instanceof Error ? error.message : String(error)}`,
      }));
      if (decision) state.decided[id] = decision;
    }
    if (decision) decisions.set(id, decision);
    else waiting.push({ id, name: fn.name, arguments: fn.arguments });
  }
  if (signal.aborted) throw abortError(signal);
  if (waiting.length) {
    state.pending = calls;
    for (const call of waiting) emit({ type: 'approval_request', step: record.index, call });
    return waiting;
  }
  const running = prepared.map((item) =>
    runCall(item, decisions.get(item.call.id), signal).then((result) => {
      emit({ type: 'tool_result', step: record.index, ...result });
      return result;
    }),
  );
  record.tool_calls = await Promise.race([Promise.all(running), rejected(signal)]);
  for (const result of record.tool_calls)
    state.messages.push({ role: 'tool', tool_call_id: result.id, content: result.output });
  state.pending = null;
  state.decided = {};
  return [];
}

/**
 * The agent loop: the model with the tools → its calls decided (approval) and run in the page
 * (results returned in call order) → again, until an answer without calls (`incomplete` when
 * `max_tokens` cut it, a required call included), a call waiting for approval (`incomplete`,
 * `approval_required`: `resume` goes on), `maxSteps` (counted from here), or abort. After a step
 * with calls `tool_choice` goes back to `auto` (**Choice**, as the OpenAI Agents SDK's
 * reset_tool_choice), so a required first call cannot loop for ever.
 */
export async function runAgent(
  engine: ChatEngine,
  params: ChatParams,
  tools: AgentTool[],
  options: AgentOptions,
): Promise<AgentResult & { state: AgentState }> {
  const { maxSteps, signal, emit } = options;
  const state: AgentState = options.resume ?? {
    messages: [...params.messages],
    steps: [],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    pending: null,
    decided: {},
  };
  const { steps, usage, messages } = state;
  const definitions = tools.length ? tools.map((tool) => tool.definition) : undefined;
  let choice: ToolChoice | undefined = options.resume && params.tool_choice !== 'none' ? 'auto' : params.tool_choice;
  let content = steps.at(-1)?.content ?? '';
  const end = (
    status: AgentResult['status'],
    reason: 'max_steps' | 'max_output_tokens' | 'approval_required' | null,
    pending: PendingCall[] = [],
  ) => ({
    status,
    incomplete_details: reason ? { reason } : null,
    output_text: content,
    steps,
    usage,
    pending,
    state,
  });
  if (state.pending) {
    const waiting = await settle(state.pending, tools, state, steps.at(-1)!, options);
    if (waiting.length) return end('incomplete', 'approval_required', waiting);
  }
  const first = steps.length;
  for (let index = first; index < first + maxSteps; index++) {
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
      return outcome.finish_reason === 'length' ? end('incomplete', 'max_output_tokens') : end('completed', null);

    messages.push({ role: 'assistant', content: content || null, tool_calls: calls });
    for (const call of calls)
      emit({
        type: 'tool_call',
        step: index,
        call: { id: call.id, name: call.function.name, arguments: call.function.arguments },
      });
    const waiting = await settle(calls, tools, state, record, options);
    record.duration_ms = ms(started);
    if (waiting.length) return end('incomplete', 'approval_required', waiting);
    if (choice !== 'none') choice = 'auto';
  }
  return end('incomplete', 'max_steps');
}
