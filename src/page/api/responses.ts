import { CitationFilter, citationsOf } from '../services/grounding/citations';
import type { ChatDelta, ChatEngine, ChatMessage, ChatOutcome, ChatParams } from '../../protocol/chat';
import { parse, readJson } from './http/body';
import { startChat } from '../services/chat/chat';
import { dispatchChat, type Services } from './http/dispatch';
import { ApiError } from './http/errors';
import { EngineError } from '../../protocol/errors';
import { requireModel, requireWithinContext } from './http/models-check';
import { sseResponse } from './http/sse';
import { annotationOf, fileSearch, type FileSearch } from './responses/_file-search';
import { inputMessages } from './responses/_input';
import { grounded, toParams } from './responses/_params';
import { pageToolsResponse, usesPageTools } from './responses/_agent';
import { inputItemsOf, type ListedItem } from './responses/{response_id}/input_items';
import { assistantMessage, ResponseOutput, type OutputItem, type ResponseEvent } from './responses/_output';
import { responsesSchema, type ResponsesRequest } from './responses/_schema';
import type { StoredResponse } from './responses/_history';
import { endingOf, responseShape } from './responses/_shape';
import { randomId, unixSeconds } from '../../common/ids';

function previousOf(ctx: Services, body: ResponsesRequest): StoredResponse | undefined {
  const id = body.previous_response_id;
  if (!id) return undefined;
  const previous = ctx.responses.get(id);
  if (!previous)
    throw new ApiError(
      404,
      `Previous response with id '${id}' not found (responses are kept in this page's memory while it is open).`,
      'previous_response_not_found',
      'previous_response_id',
    );
  return previous;
}

/** POST /responses: OpenAI's Responses API on the local chat engine; function calls go back to the client. */
export async function POST(ctx: Services, request: Request, path: string): Promise<Response> {
  const { value, raw } = await readJson(request);
  const body = parse(responsesSchema, value);
  const model = requireModel(body.model, 'chat', 'code', 'agents');
  requireWithinContext(model, body.max_output_tokens);
  const previous = previousOf(ctx, body);
  if (usesPageTools(body, previous)) return pageToolsResponse(ctx, { request, path, raw }, body, previous, model);
  return dispatchChat(ctx, { request, path, raw }, body, async (engine) => {
    const history = [...(previous?.messages ?? []), ...inputMessages(body.input)];
    const context = ctx.registry.info(body.model)?.contextWindow ?? model.context_window ?? 4096;
    const search = await fileSearch(ctx, body, history, context);
    const input = [...(previous ? [...previous.input, ...previous.output] : []), ...inputItemsOf(body.input)];
    try {
      const params = toParams(body, history);
      if (search) params.messages = grounded(params.messages, search);
      return await run(ctx, engine, body, params, { messages: history, input }, request.signal, search);
    } catch (error) {
      throw inResponsesTerms(error, body);
    }
  });
}

/**
 * A schema error named in chat terms (the shared checks and the engine see chat params) named where
 * the schema sits in this body: `text.format.schema`, `tools[i].parameters` (i counts every tool).
 */
function inResponsesTerms(error: unknown, body: ResponsesRequest): unknown {
  const param = error instanceof ApiError || error instanceof EngineError ? error.param : null;
  const tool = param && /^tools\[(\d+)\]\.function\.(.+)$/.exec(param);
  const functions = (body.tools ?? []).flatMap((t, i) => (t.type === 'function' ? [i] : []));
  const renamed = !param
    ? undefined
    : param.startsWith('response_format')
      ? param.replace(/^response_format(\.json_schema)?/, 'text.format')
      : tool && functions[Number(tool[1])] !== undefined
        ? `tools[${functions[Number(tool[1])]}].${tool[2]}`
        : undefined;
  if (!param || !renamed) return error;
  const message = (error as Error).message.replaceAll(param, renamed);
  return error instanceof ApiError
    ? new ApiError(error.status, message, error.code, renamed, error.headers)
    : new EngineError((error as EngineError).kind, message, (error as EngineError).code, renamed);
}

/** The chat deltas with invented citation markers removed (when file_search supplied passages). */
async function* cited(deltas: AsyncIterable<ChatDelta>, search: FileSearch | undefined): AsyncGenerator<ChatDelta> {
  if (!search) return yield* deltas;
  const filter = new CitationFilter(search.passages.length);
  for await (const delta of deltas) yield delta.content ? { ...delta, content: filter.push(delta.content) } : delta;
  const rest = filter.end();
  if (rest) yield { content: rest };
}

async function run(
  ctx: Services,
  engine: ChatEngine,
  body: ResponsesRequest,
  params: ChatParams,
  history: { messages: ChatMessage[]; input: ListedItem[] },
  signal: AbortSignal,
  search: FileSearch | undefined,
): Promise<Response> {
  const { deltas, done, backend, stop } = await startChat(engine, params, signal);
  const id = randomId('resp_');
  const createdAt = unixSeconds();
  const headers = { 'x-vaani-backend': backend };
  const shape = (output: OutputItem[], outcome?: ChatOutcome) =>
    responseShape({ id, createdAt, body, params }, output, outcome && endingOf(outcome));
  const finish = async (output: ResponseOutput) => {
    output.close();
    const response = shape(output.items, await done);
    if (body.store !== false)
      ctx.responses.put(id, {
        messages: [...history.messages, assistantMessage(output.items)],
        response,
        input: history.input,
        output: output.items.map((item) => (item === search?.item ? { ...item, results: search.results } : item)),
      });
    return response;
  };

  const annotate = search && ((text: string) => citationsOf(text, search.passages).map(annotationOf));
  if (!body.stream) {
    const output = new ResponseOutput(undefined, annotate);
    if (search) output.add(search.item);
    for await (const delta of cited(deltas, search)) output.push(delta);
    return Response.json(await finish(output), { headers });
  }
  return sseResponse(
    signal,
    async (sink) => {
      sink.signal.addEventListener('abort', () => stop.abort(sink.signal.reason), { once: true });
      let sequence = 0;
      const emit = (event: ResponseEvent) => sink.send({ ...event, sequence_number: sequence++ }, event.type);
      emit({ type: 'response.created', response: shape([]) });
      emit({ type: 'response.in_progress', response: shape([]) });
      const output = new ResponseOutput(emit, annotate);
      if (search) output.add(search.item);
      for await (const delta of cited(deltas, search)) output.push(delta);
      const response = await finish(output);
      emit({ type: response.status === 'incomplete' ? 'response.incomplete' : 'response.completed', response });
    },
    headers,
  );
}
