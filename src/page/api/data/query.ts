import type * as v from 'valibot';
import { citationsOf } from '../../services/grounding/citations';
import { groundedAnswer, type GroundedAnswer } from '../../services/grounding/answer';
import { CHAT_DEFAULTS, chatParams } from '../../services/chat/params';
import { groundedPrompt, groundingPreamble } from '../../services/grounding/prompt';
import type { ChatMessage } from '../../../protocol/chat';
import type { SearchResult } from '../../../protocol/data';
import { parse, readJson } from '../http/body';
import { routedChat, type Services } from '../http/dispatch';
import { RemoteAnswer } from '../http/remote-chat';
import { requireModel, requireWithinContext } from '../http/models-check';
import { sseResponse, type SseSink } from '../http/sse';
import { runData } from '../_data';
import { querySchema } from '../_data-schema';
import { randomId, unixSeconds } from '../../../common/ids';

type Query = v.InferOutput<typeof querySchema>;

/** What the answer says when no passage was found: no model call, nothing to invent. */
const NOTHING_FOUND = 'The documents do not say: no passage in them matches the question.';
const ANSWER_TOKENS = 512;

const passageOf = ({ chunk, ...result }: SearchResult, i: number) => ({ passage: i + 1, ...result, chunk });

/** The grounded chat request: the chat route's defaults, `/data/query`'s answer budget. */
const answerParams = (body: Query, messages: ChatMessage[]) =>
  chatParams(
    {
      model: body.model,
      messages,
      max_tokens: body.max_tokens ?? ANSWER_TOKENS,
      temperature: body.temperature,
      seed: body.seed,
    },
    CHAT_DEFAULTS.data_query,
  );

/**
 * Starts the chat engine on the grounded prompt's system message as far as it is known before the
 * passages (where the engine that answers first keeps a prompt cache): the answer's request then
 * prefills only the passages and the question. Nothing waits on it and a failure here is the answer's
 * to report, not this.
 */
function prefillPreamble(ctx: Services, request: Request, body: Query): void {
  try {
    const engine = routedChat(ctx, request, body.model, body.stream);
    const system: ChatMessage = { role: 'system', content: groundingPreamble(body.instructions) };
    void engine.prefill?.(answerParams(body, [system]), request.signal).catch(() => 0);
  } catch {
    // No engine answers the model: the answer says so, if it gets that far.
  }
}

/** POST /data/query: retrieval alone (`mode: 'search'`), or a grounded chat answer with its citations. */
export async function POST(ctx: Services, request: Request, path: string): Promise<Response> {
  const { value, raw } = await readJson(request);
  const body = parse(querySchema, value);
  if (body.mode === 'answer') requireModel(body.model, 'chat');
  const storeIds = body.vector_store_ids ?? [body.dataset!];
  return runData(ctx, request, path, raw, async (data) => {
    // The prompt's start (instructions and rules) runs into the chat model's cache while retrieval runs.
    if (body.mode === 'answer') prefillPreamble(ctx, request, body);
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
    const finish = (content: string, extra: Record<string, unknown>, invented: ReadonlySet<number>) => ({
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
    requireWithinContext(requireModel(body.model, 'chat'), body.max_tokens ?? ANSWER_TOKENS);
    const engine = routedChat(ctx, request, body.model, body.stream);
    let answer: GroundedAnswer;
    try {
      answer = await groundedAnswer(engine, answerParams(body, messages), passages.length, request.signal);
    } catch (error) {
      if (error instanceof RemoteAnswer) return error.response;
      throw error;
    }
    if (!body.stream) {
      let content = '';
      for await (const text of answer.text) content += text;
      const { finish_reason, usage } = await answer.done;
      return finish(content, { finish_reason, usage }, answer.invented);
    }
    return sseResponse(request.signal, async (sink: SseSink) => {
      sink.signal.addEventListener('abort', () => answer.stop.abort(sink.signal.reason), { once: true });
      sink.send({ ...base, object: 'data.query.results', results: passages.map(passageOf) });
      let content = '';
      for await (const text of answer.text) {
        content += text;
        sink.send({ object: 'data.query.chunk', delta: { content: text } });
      }
      const { finish_reason, usage } = await answer.done;
      sink.send(finish(content, { finish_reason, usage }, answer.invented));
    });
  });
}
