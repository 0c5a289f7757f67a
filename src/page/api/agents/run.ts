import * as v from 'valibot';
import { defaultModel } from '../../../catalogue/families';
import { agentTool, TOOL_NAME } from '../../services/agents/registry';
import type { ChatEngine, ChatParams, ToolChoice } from '../../../protocol/chat';
import { parse, readJson } from '../http/body';
import { CHAT_DEFAULTS, chatParams, requireEnforceable } from '../../services/chat/params';
import { approvalResponse, samplingFields } from '../http/sampling';
import { dispatchChat, type Services } from '../http/dispatch';
import { ApiError, badRequest, toApiError } from '../http/errors';
import { scopeSchema } from '../memory/_schema';
import { requireModel, requireWithinContext } from '../http/models-check';
import { sseResponse } from '../http/sse';
import { BUILTIN_NAMES, builtinTool, type BuiltinRef, type RouteCall } from '../../services/agents/builtins';
import {
  runAgent,
  type AgentEvent,
  type AgentOptions,
  type AgentState,
  type AgentTool,
  type PendingCall,
} from '../../services/agents/loop';
import {
  answered,
  approver,
  requestItems,
  type ApprovalRequestItem,
  type ApprovalResponse,
  type PausedRun,
} from '../../services/agents/approval';
import { randomId, unixSeconds } from '../../../common/ids';

const toolName = v.pipe(v.string(), v.regex(TOOL_NAME, 'must be 1–128 characters of A–Z, a–z, 0–9, _, . or -'));
const count = (max: number) => v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(max));

const toolRef = v.union(
  [
    toolName,
    v.object({
      type: v.literal('function'),
      function: v.object({
        name: toolName,
        description: v.optional(v.string()),
        parameters: v.optional(v.record(v.string(), v.unknown())),
        strict: v.optional(v.nullable(v.boolean())),
      }),
    }),
    v.object({ type: v.literal('memory.search'), scope: v.optional(scopeSchema), limit: v.optional(count(20)) }),
    v.object({ type: v.literal('memory.store'), scope: v.optional(scopeSchema) }),
    v.object({
      type: v.literal('file_search'),
      vector_store_ids: v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1), v.maxLength(8)),
      max_num_results: v.optional(count(50)),
    }),
  ],
  'must be a registered tool name, a function tool, or a built-in ({type: memory.search | memory.store | file_search})',
);

const message = v.object({
  role: v.picklist(['system', 'developer', 'user', 'assistant'], 'must be one of system, developer, user or assistant'),
  content: v.string(),
});

/** POST /agents/run (**Choice**, docs/api.md). */
const agentsSchema = v.object({
  model: v.optional(v.pipe(v.string(), v.minLength(1)), defaultModel('/agents/run')),
  input: v.union([
    v.pipe(v.string(), v.minLength(1, 'must not be empty')),
    v.pipe(
      v.array(v.union([message, approvalResponse], 'must be a message ({role, content}) or an mcp_approval_response')),
      v.minLength(1, 'must contain at least one message'),
    ),
  ]),
  previous_run_id: v.optional(v.nullable(v.string())),
  instructions: v.optional(v.nullable(v.string())),
  tools: v.optional(v.pipe(v.array(toolRef), v.maxLength(64))),
  tool_choice: v.optional(
    v.union([
      v.picklist(['none', 'auto', 'required']),
      v.object({ type: v.literal('function'), function: v.object({ name: toolName }) }),
    ]),
  ),
  parallel_tool_calls: v.optional(v.nullable(v.boolean())),
  max_steps: v.optional(count(50), 10),
  max_tokens: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1)))),
  ...samplingFields,
  stream: v.optional(v.nullable(v.boolean()), false),
});

type AgentsRequest = v.InferOutput<typeof agentsSchema>;

/** The built-in tools' way into this page's own routes: with the run's key and signal. */
const routeCall =
  (ctx: Services, auth: string): RouteCall =>
  async (path, body, signal) => {
    const response = await ctx.self(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: auth },
      body: JSON.stringify(body),
      signal,
    });
    const json = (await response.json()) as { data?: unknown[]; error?: { message: string } };
    if (!response.ok) throw new Error(json.error?.message ?? `${path} answered ${response.status}`);
    return json.data ?? [];
  };

/** The request's tools: built-ins, the page's registered tools by name, and declared function tools (run by a page tool of that name, if any). */
function resolveTools(ctx: Services, body: AgentsRequest, auth: string): AgentTool[] {
  const tools = (body.tools ?? []).map((ref, i): AgentTool => {
    if (typeof ref === 'string' && (BUILTIN_NAMES as readonly string[]).includes(ref))
      return builtinTool(routeCall(ctx, auth), { type: ref } as BuiltinRef);
    if (typeof ref === 'string') {
      const tool = ctx.tools.get(ref);
      if (!tool)
        throw badRequest(
          `No tool named '${ref}' is registered in this page: register it with ai.tools.register({ name, inputSchema, execute }).`,
          `tools[${i}]`,
          'tool_not_found',
        );
      return agentTool(tool);
    }
    if (ref.type === 'function') {
      const page = ctx.tools.get(ref.function.name);
      const definition = ref as AgentTool['definition'];
      return page ? agentTool(page, definition) : { definition };
    }
    return builtinTool(routeCall(ctx, auth), ref);
  });
  tools.forEach((tool, i) => {
    if (tools.findIndex((other) => other.definition.function.name === tool.definition.function.name) !== i)
      throw badRequest(`The tool '${tool.definition.function.name}' is listed twice.`, `tools[${i}]`);
  });
  const choice = body.tool_choice;
  if (typeof choice === 'object' && !tools.some((tool) => tool.definition.function.name === choice.function.name))
    throw badRequest(`tool_choice names '${choice.function.name}', which is not in tools.`, 'tool_choice');
  return tools;
}

const toParams = (body: AgentsRequest): ChatParams =>
  chatParams(
    {
      ...body,
      messages:
        typeof body.input === 'string'
          ? [{ role: 'user', content: body.input }]
          : body.input.flatMap((item) => ('role' in item ? [item] : [])),
      tools: undefined,
      tool_choice: body.tool_choice as ToolChoice | undefined,
    },
    CHAT_DEFAULTS.agents,
  );

/** The run a request goes on with: its stopped state with the request's approvals as decisions. */
function resumed(ctx: Services, body: AgentsRequest): { state: AgentState; paused: PausedRun } | undefined {
  const items = typeof body.input === 'string' ? [] : body.input;
  const answers = items.flatMap((item, i) => ('type' in item ? [{ item, i }] : []));
  if (!body.previous_run_id) {
    if (answers.length)
      throw badRequest(
        "An mcp_approval_response answers a run stopped for approval: send it with that run's previous_run_id.",
        `input[${answers[0]!.i}]`,
      );
    return undefined;
  }
  const paused = ctx.runs.get(body.previous_run_id);
  if (!paused)
    throw new ApiError(
      404,
      `No run with id '${body.previous_run_id}' waits for approval in this page (runs stopped for approval are kept in its memory until answered).`,
      'run_not_found',
      'previous_run_id',
    );
  const message = items.findIndex((item) => 'role' in item);
  if (message >= 0)
    throw badRequest(
      'This run waits for approvals: answer it with mcp_approval_response items only.',
      `input[${message}]`,
    );
  const { state, unknown } = answered(
    paused,
    answers.map(({ item }) => item as ApprovalResponse),
  );
  if (unknown !== undefined)
    throw badRequest(
      `No approval request with id '${(answers[unknown]!.item as ApprovalResponse).approval_request_id}' in this run.`,
      `input[${answers[unknown]!.i}].approval_request_id`,
      'approval_request_not_found',
    );
  return { state, paused };
}

/** POST /agents/run: the agent loop over page-registered, declared and built-in tools. */
export async function POST(ctx: Services, request: Request, path: string): Promise<Response> {
  const { value, raw } = await readJson(request);
  const body = parse(agentsSchema, value);
  requireWithinContext(requireModel(body.model, 'agents', 'chat', 'code'), body.max_tokens);
  const resume = resumed(ctx, body);
  body.tools ??= resume?.paused.tools as AgentsRequest['tools'];
  const tools = resolveTools(ctx, body, request.headers.get('authorization') ?? 'Bearer local');
  const params = toParams(body);
  requireEnforceable({ ...params, tools: tools.map((tool) => tool.definition) });
  const approve = approver([ctx.runApprovers.get(request), ctx.approve], '/agents/run', request.signal);
  return dispatchChat(ctx, { request, path, raw }, body, (engine) =>
    run(ctx, engine, body, params, tools, { signal: request.signal, approve, resume }),
  );
}

async function run(
  ctx: Services,
  engine: ChatEngine,
  body: AgentsRequest,
  params: ChatParams,
  tools: AgentTool[],
  { signal, approve, resume }: Pick<AgentOptions, 'signal' | 'approve'> & { resume?: ReturnType<typeof resumed> },
) {
  const id = randomId('run_');
  const meta = { id, object: 'agent.run', created: unixSeconds(), model: body.model };
  let requests: Record<string, string> = resume?.paused.requests ?? {};
  const asked = new Map<string, ApprovalRequestItem>();
  /** The approval request of a call (one id per call, kept across continuations). */
  const requestOf = (call: PendingCall) => {
    if (!asked.has(call.id)) {
      const made = requestItems([call], requests, 'page');
      requests = { ...requests, ...made.requests };
      asked.set(call.id, made.items[0]!);
    }
    return asked.get(call.id)!;
  };
  const go = async (emit: AgentOptions['emit'], runSignal = signal) => {
    if (body.previous_run_id && !ctx.runs.delete(body.previous_run_id))
      throw new ApiError(
        404,
        `The run '${body.previous_run_id}' was already answered.`,
        'run_not_found',
        'previous_run_id',
      );
    const { state, pending, ...result } = await runAgent(engine, params, tools, {
      maxSteps: body.max_steps,
      signal: runSignal,
      emit,
      approve,
      resume: resume?.state,
    });
    const approval_requests = pending.map(requestOf);
    if (pending.length)
      ctx.runs.put(id, {
        state,
        requests: Object.fromEntries(approval_requests.map((item) => [item.id, requests[item.id]!])),
        tools: body.tools,
      });
    return { ...meta, ...result, approval_requests, previous_run_id: body.previous_run_id ?? null };
  };
  if (!body.stream) return Response.json(await go(() => {}));
  return sseResponse(signal, async (sink) => {
    const emit = (event: AgentEvent | { type: string; [key: string]: unknown }) => sink.send(event, event.type);
    try {
      const answer = await go(
        (event) =>
          emit(
            event.type === 'approval_request'
              ? { type: event.type, step: event.step, item: requestOf(event.call) }
              : event,
          ),
        sink.signal,
      );
      emit({ type: 'run.completed', run: answer });
    } catch (error) {
      if (sink.signal.aborted) throw error;
      emit({ type: 'run.failed', ...toApiError(error).body });
    }
  });
}
