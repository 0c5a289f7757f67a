import type { CatalogueEntry } from '../../../catalogue/families';
import type { ChatEngine, ChatParams, Usage } from '../../../protocol/chat';
import { CitationFilter, citationsOf } from '../../services/grounding/citations';
import { requireEnforceable } from '../../services/chat/params';
import { agentTool } from '../../services/agents/registry';
import { runAgent, type AgentEvent, type AgentState, type AgentTool } from '../../services/agents/loop';
import {
  answered,
  approver,
  requestItems,
  type ApprovalRequestItem,
  type ApprovalResponse,
} from '../../services/agents/approval';
import { dispatchChat, type Incoming, type Services } from '../http/dispatch';
import { badRequest } from '../http/errors';
import { sseResponse } from '../http/sse';
import { annotationOf, fileSearch, type FileSearch } from './_file-search';
import type { StoredResponse } from './_history';
import { inputMessages } from './_input';
import { ResponseOutput, type McpCallItem, type ResponseEvent } from './_output';
import { grounded, toParams } from './_params';
import { isMessage, type McpTool, type ResponsesRequest } from './_schema';
import { responseShape } from './_shape';
import { inputItemsOf } from './{response_id}/input_items';
import { randomId, unixSeconds } from '../../../common/ids';

/** **Choice**: model steps one request runs with the page's tools before it ends `incomplete` (`max_steps`). */
export const PAGE_TOOL_STEPS = 10;

const approvalsOf = (body: ResponsesRequest) =>
  typeof body.input === 'string'
    ? []
    : body.input.flatMap((item, i) =>
        item.type === 'mcp_approval_response' ? [{ answer: item as ApprovalResponse, i }] : [],
      );

/** Whether a request runs the page's tools in the page: an `mcp` tool, an approval answer, or a run waiting for one. */
export const usesPageTools = (body: ResponsesRequest, previous: StoredResponse | undefined) =>
  !!previous?.agent || (body.tools ?? []).some((tool) => tool.type === 'mcp') || approvalsOf(body).length > 0;

/** The `mcp` tool's page tools (`allowed_tools`, else every registered one); `require_approval` can only add approval. */
function pageTools(ctx: Services, body: ResponsesRequest): { tools: AgentTool[]; label: string } {
  const all = body.tools ?? [];
  const at = all.findIndex((tool) => tool.type === 'mcp');
  if (at < 0)
    throw badRequest(
      "An mcp_approval_response answers a response that ran the page's tools: send it with that response's previous_response_id.",
      `input[${approvalsOf(body)[0]?.i ?? 0}]`,
    );
  const mcp = all[at] as McpTool;
  for (const field of ['server_url', 'connector_id'] as const)
    if (mcp[field] !== undefined)
      throw badRequest(
        `Only this page's own tools (ai.tools) answer an mcp tool here: leave out ${field}.`,
        `tools[${at}].${field}`,
        'unsupported_value',
      );
  const fn = all.findIndex((tool) => tool.type === 'function');
  if (fn >= 0)
    throw badRequest(
      "Function tools (run by the client) and an mcp tool (the page's tools, run here) cannot be mixed in one request.",
      `tools[${fn}]`,
    );
  const allowed = Array.isArray(mcp.allowed_tools) ? mcp.allowed_tools : mcp.allowed_tools?.tool_names;
  const names = allowed ?? ctx.tools.list().map((tool) => tool.name);
  names.forEach((name, j) => {
    if (!ctx.tools.get(name))
      throw badRequest(
        `No tool named '${name}' is registered in this page: register it with ai.tools.register({ name, inputSchema, execute }).`,
        `tools[${at}].allowed_tools[${j}]`,
        'tool_not_found',
      );
  });
  if (!names.length)
    throw badRequest(
      'This page registers no tools (ai.tools.register) for the mcp tool.',
      `tools[${at}]`,
      'tool_not_found',
    );
  const rule = mcp.require_approval;
  const always = rule === 'always' ? names : typeof rule === 'object' ? (rule?.always?.tool_names ?? []) : [];
  const tools = names.map((name) => {
    const tool = agentTool(ctx.tools.get(name)!);
    return always.includes(name) ? { ...tool, needsApproval: true } : tool;
  });
  const choice = body.tool_choice;
  if (typeof choice === 'object' && choice?.name && !names.includes(choice.name))
    throw badRequest(
      `tool_choice names '${choice.name}', which is not among the mcp tool's tools.`,
      'tool_choice.name',
    );
  return { tools, label: mcp.server_label };
}

/** The state a request goes on with: a stopped run with the request's answers as decisions. */
function resumed(body: ResponsesRequest, previous: StoredResponse | undefined): AgentState | undefined {
  const paused = previous?.agent;
  if (!paused) {
    const first = approvalsOf(body)[0];
    if (first && previous)
      throw badRequest(
        'The previous response does not wait for approval (it asked none, or it was already answered).',
        `input[${first.i}]`,
        'approval_request_not_found',
      );
    return undefined;
  }
  const items = typeof body.input === 'string' ? ['text'] : body.input;
  const other = items.findIndex(
    (item) => typeof item === 'string' || isMessage(item) || item.type.startsWith('function'),
  );
  if (other >= 0)
    throw badRequest(
      'The previous response waits for approvals: answer it with mcp_approval_response items only.',
      typeof body.input === 'string' ? 'input' : `input[${other}]`,
    );
  const answers = approvalsOf(body);
  const { state, unknown } = answered(
    paused,
    answers.map(({ answer }) => answer),
  );
  if (unknown !== undefined)
    throw badRequest(
      `No approval request with id '${answers[unknown]!.answer.approval_request_id}' in the previous response.`,
      `input[${answers[unknown]!.i}].approval_request_id`,
      'approval_request_not_found',
    );
  return state;
}

const minus = (a: Usage, b: Usage): Usage => ({
  prompt_tokens: a.prompt_tokens - b.prompt_tokens,
  completion_tokens: a.completion_tokens - b.completion_tokens,
  total_tokens: a.total_tokens - b.total_tokens,
});

/**
 * POST /responses with the page's tools (an `mcp` tool): the agent loop runs them in the page,
 * each call an `mcp_call` item; a call that needs approval and no hook decided ends the response
 * `incomplete` (`approval_required`) with `mcp_approval_request` items, answered by
 * `mcp_approval_response` items with `previous_response_id`.
 */
export function pageToolsResponse(
  ctx: Services,
  incoming: Incoming,
  body: ResponsesRequest,
  previous: StoredResponse | undefined,
  model: CatalogueEntry,
): Promise<Response> {
  const resume = resumed(body, previous);
  if (resume && !body.tools) body.tools = previous!.agent!.tools as ResponsesRequest['tools'];
  const { tools, label } = pageTools(ctx, body);
  requireEnforceable({ ...toParams(body, []), tools: tools.map((tool) => tool.definition) });
  const paused = previous?.agent;
  // Answered once: a second answer to the same response finds nothing to run.
  if (resume) delete previous!.agent;
  return dispatchChat(ctx, incoming, body, async (engine) => {
    const history = [...(previous?.messages ?? []), ...inputMessages(body.input)];
    const context = ctx.registry.info(body.model)?.contextWindow ?? model.context_window ?? 4096;
    const search = resume ? undefined : await fileSearch(ctx, body, history, context);
    const params = { ...toParams(body, history), tools: undefined };
    if (search) params.messages = grounded(params.messages, search);
    const base = resume ? previous!.messages : history;
    const offset = resume ? paused!.offset : params.messages.length;
    const input = [...(previous ? [...previous.input, ...previous.output] : []), ...inputItemsOf(body.input)];
    return run(ctx, engine, incoming.request, body, params, tools, {
      label,
      resume,
      search,
      base,
      offset,
      input,
      requests: paused?.requests ?? {},
    });
  });
}

async function run(
  ctx: Services,
  engine: ChatEngine,
  request: Request,
  body: ResponsesRequest,
  params: ChatParams,
  tools: AgentTool[],
  at: {
    label: string;
    resume: AgentState | undefined;
    search: FileSearch | undefined;
    base: StoredResponse['messages'];
    offset: number;
    input: StoredResponse['input'];
    requests: Record<string, string>;
  },
): Promise<Response> {
  const id = randomId('resp_');
  const meta = { id, createdAt: unixSeconds(), body, params };
  const before = { ...(at.resume?.usage ?? { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }) };
  const { search } = at;
  const annotate = search && ((text: string) => citationsOf(text, search.passages).map(annotationOf));
  const asked = new Map<string, ApprovalRequestItem>();
  let requests = at.requests;
  const requestOf = (call: { id: string; name: string; arguments: string }) => {
    if (!asked.has(call.id)) {
      const made = requestItems([call], requests, at.label);
      requests = { ...requests, ...made.requests };
      asked.set(call.id, made.items[0]!);
    }
    return asked.get(call.id)!;
  };
  const requestIdOf = (call: string) => Object.entries(requests).find(([, c]) => c === call)?.[0] ?? null;

  const go = async (signal: AbortSignal, emit?: (event: ResponseEvent) => void) => {
    const output = new ResponseOutput(emit, annotate);
    if (search) output.add(search.item);
    const filter = search && new CitationFilter(search.passages.length);
    const onEvent = (event: AgentEvent) => {
      if (event.type === 'message.delta') output.push({ content: filter ? filter.push(event.delta) : event.delta });
      else if (event.type === 'approval_request') output.add(requestOf(event.call));
      else if (event.type === 'tool_result')
        output.add({
          id: randomId('mcp_'),
          type: 'mcp_call',
          status: event.is_error ? 'failed' : 'completed',
          server_label: at.label,
          name: event.name,
          arguments: event.arguments,
          output: event.is_error ? null : event.output,
          error: event.is_error ? event.output : null,
          approval_request_id: event.approval ? requestIdOf(event.id) : null,
        } satisfies McpCallItem);
    };
    const approve = approver([ctx.runApprovers.get(request), ctx.approve], '/responses', signal);
    const result = await runAgent(engine, params, tools, {
      maxSteps: PAGE_TOOL_STEPS,
      signal,
      emit: onEvent,
      approve,
      resume: at.resume,
    });
    const rest = filter?.end();
    if (rest) output.push({ content: rest });
    output.close();
    const { state } = result;
    const end = {
      status: result.status,
      incomplete_details: result.incomplete_details,
      usage: minus(result.usage, before),
    };
    const response = responseShape(meta, output.items, end);
    if (body.store !== false) {
      const messages = [...at.base, ...state.messages.slice(at.offset)];
      if (!result.pending.length) messages.push({ role: 'assistant', content: result.output_text });
      ctx.responses.put(id, {
        messages,
        response,
        input: at.input,
        output: output.items.map((item) => (item === search?.item ? { ...item, results: search.results } : item)),
        agent: result.pending.length
          ? { state, requests, tools: body.tools ?? undefined, offset: state.messages.length }
          : undefined,
      });
    }
    return response;
  };
  if (!body.stream) return Response.json(await go(request.signal));
  return sseResponse(request.signal, async (sink) => {
    let sequence = 0;
    const emit = (event: ResponseEvent) => sink.send({ ...event, sequence_number: sequence++ }, event.type);
    emit({ type: 'response.created', response: responseShape(meta, []) });
    emit({ type: 'response.in_progress', response: responseShape(meta, []) });
    const response = await go(sink.signal, emit);
    emit({ type: response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', response });
  });
}
