import type * as v from 'valibot';
import { CitationFilter, citationsOf } from '../../services/grounding/citations';
import { groundedPrompt } from '../../services/grounding/prompt';
import type { ChatMessage } from '../../../protocol/chat';
import type { SearchResult } from '../../../protocol/data';
import { parse, readJson } from '../http/body';
import { POST as chatCompletions } from '../chat/completions';
import type { Services } from '../http/dispatch';
import { ApiError } from '../http/errors';
import { requireModel } from '../http/models-check';
import { sseResponse, type SseSink } from '../http/sse';
import { runData } from '../_data';
import { querySchema } from '../_data-schema';
import { randomId, unixSeconds } from '../../../common/ids';

type Query = v.InferOutput<typeof querySchema>;

/** What the answer says when no passage was found: no model call, nothing to invent. */
const NOTHING_FOUND = 'The documents do not say: no passage in them matches the question.';
const ANSWER_TOKENS = 512;

const passageOf = ({ chunk, ...result }: SearchResult, i: number) => ({ passage: i + 1, ...result, chunk });

/** The chat route, called in-process with the grounded messages (routing, validation and errors as any chat request). */
function askChat(ctx: Services, request: Request, body: Query, messages: ChatMessage[], stream: boolean) {
  const url = new URL(request.url);
  url.pathname = url.pathname.replace(/\/data\/query$/, '/chat/completions');
  const chat = {
    model: body.model,
    messages,
    stream,
    max_tokens: body.max_tokens ?? ANSWER_TOKENS,
    ...(body.temperature !== undefined ? { temperature: body.temperature } : {}),
    ...(body.seed !== undefined ? { seed: body.seed } : {}),
    ...(stream ? { stream_options: { include_usage: true } } : {}),
  };
  const headers = new Headers(request.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  return chatCompletions(
    ctx,
    new Request(url, { method: 'POST', headers, body: JSON.stringify(chat), signal: request.signal }),
    '/chat/completions',
  );
}

/** The `data:` events of a chat SSE answer, parsed. */
async function* events(response: Response): AsyncGenerator<Record<string, unknown>> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const line = buffer.slice(0, end).trim();
      buffer = buffer.slice(end + 2);
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') return;
      yield JSON.parse(data) as Record<string, unknown>;
    }
  }
}

interface ChatChunk {
  choices?: { delta?: { content?: string }; finish_reason?: string | null }[];
  usage?: unknown;
  error?: { message: string; code: string | null; param: string | null };
}

/** POST /data/query: retrieval alone (`mode: 'search'`), or a grounded chat answer with its citations. */
export async function POST(ctx: Services, request: Request, path: string): Promise<Response> {
  const { value, raw } = await readJson(request);
  const body = parse(querySchema, value);
  if (body.mode === 'answer') requireModel(body.model, 'chat');
  const storeIds = body.vector_store_ids ?? [body.dataset!];
  return runData(ctx, request, path, raw, async (data) => {
    const results = await data.search(storeIds, {
      text: body.query,
      mode: 'hybrid',
      filters: body.filters ?? undefined,
      limit: body.max_num_results,
      minScore: body.score_threshold,
    });
    const base = {
      id: randomId('dq_'),
      object: 'data.query',
      created: unixSeconds(),
      mode: body.mode,
      query: body.query,
      vector_store_ids: storeIds,
    };
    if (body.mode === 'search') return { ...base, results: results.map(passageOf) };

    const contextTokens =
      ctx.registry.info(body.model)?.contextWindow ?? requireModel(body.model, 'chat').context_window!;
    const { passages, messages } = groundedPrompt(
      body.query,
      results,
      { contextTokens, answerTokens: body.max_tokens ?? ANSWER_TOKENS },
      body.instructions,
    );
    const finish = (content: string, extra: Record<string, unknown>, invented: Set<number>) => ({
      ...base,
      model: body.model,
      answer: { role: 'assistant', content, annotations: citationsOf(content, passages) },
      invented_citations: [...invented].sort((a, b) => a - b),
      results: passages.map(passageOf),
      ...extra,
    });
    if (!passages.length) {
      const answer = finish(NOTHING_FOUND, { finish_reason: 'no_passages', usage: null }, new Set());
      if (!body.stream) return answer;
      return sseResponse(request.signal, async (sink) => {
        sink.send({ object: 'data.query.chunk', delta: { content: NOTHING_FOUND } });
        sink.send(answer);
      });
    }
    const filter = new CitationFilter(passages.length);
    const chat = await askChat(ctx, request, body, messages, body.stream);
    if (!chat.ok) return chat;
    if (!body.stream) {
      const completion = (await chat.json()) as {
        choices: { message: { content: string | null }; finish_reason: string }[];
        usage: unknown;
      };
      const choice = completion.choices[0]!;
      const content = filter.push(choice.message.content ?? '') + filter.end();
      return finish(content, { finish_reason: choice.finish_reason, usage: completion.usage }, filter.invented);
    }
    return sseResponse(request.signal, async (sink: SseSink) => {
      sink.send({ ...base, object: 'data.query.results', results: passages.map(passageOf) });
      let content = '';
      let finishReason: string | null = null;
      let usage: unknown = null;
      const send = (text: string) => {
        if (!text) return;
        content += text;
        sink.send({ object: 'data.query.chunk', delta: { content: text } });
      };
      for await (const event of events(chat) as AsyncGenerator<ChatChunk>) {
        if (event.error)
          throw new ApiError(500, event.error.message, event.error.code ?? 'internal_error', event.error.param);
        const choice = event.choices?.[0];
        if (choice?.delta?.content) send(filter.push(choice.delta.content));
        if (choice?.finish_reason) finishReason = choice.finish_reason;
        if (event.usage) usage = event.usage;
      }
      send(filter.end());
      sink.send(finish(content, { finish_reason: finishReason, usage }, filter.invented));
    });
  });
}
