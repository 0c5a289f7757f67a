import { groundedPrompt } from '../../src/page/services/grounding/prompt';
import { row } from '../support/rows';
import { fillCsvStore, openDataBench, percentile, post, WORDS } from '../support/data-bench';
import type { Scenario, ScenarioResult } from '../types';

const TTFT_ROUNDS = 5;
const CHUNKS = 1000;
/** Milliseconds until the first SSE event that `first` accepts. */
async function untilFirst(response: Promise<Response>, first: (event: Record<string, unknown>) => boolean) {
  const start = performance.now();
  const reader = (await response).body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    buffer += read.value;
    const parts = buffer.split('\n\n');
    buffer = parts.pop()!;
    for (const part of parts)
      if (part.startsWith('data: {') && first(JSON.parse(part.slice(6)))) {
        const ms = performance.now() - start;
        await reader.cancel();
        return ms;
      }
  }
  throw new Error('the stream ended before its first token');
}

/**
 * Time to first token of a grounded `/v1/data/query` answer (the data bench's models: the query
 * embedded by the 12-layer e5-small-shape encoder in a store of 1,000 one-sentence chunks, five
 * passages; the chat model Qwen2.5-0.5B's layer sizes with 2 layers) against plain chat answers.
 */
const grounded: Scenario = async (env) => {
  const { urls, database, make, notes } = await openDataBench('grounded');
  const rows: ScenarioResult[] = [];

  // The store: a CSV whose rows are one chunk each, embedded by the encoder's 1-layer twin (same width).
  const filler = make(urls.fill);
  const store = await fillCsvStore(filler, 'rows', CHUNKS);
  filler.dispose();
  const searcher = make(urls.encoder);

  // Time to first token: a grounded answer (retrieval, then the passages in the prompt) against a
  // plain chat answer to a prompt of the same length (the same rules and five passages, retrieved
  // untimed for another question beforehand), and against a plain answer to the bare question. Each
  // round asks new questions: a prompt the chat worker's cache already holds whole would be no test.
  const topics = WORDS.flatMap((a, i) => WORDS.slice(i + 1).map((b) => `${a} ${b}`));
  const question = (round: number, kind: number) =>
    `Which record keeps the ${topics[(round * 7 + kind * 3) % topics.length]}?`;
  type Messages = { role: string; content: string | null }[];
  const grounded = (round: number) =>
    untilFirst(
      post(searcher, '/data/query', {
        query: question(round, 0),
        vector_store_ids: [store],
        stream: true,
        max_tokens: 4,
        temperature: 0,
      }),
      (e) => e.object === 'data.query.chunk',
    );
  const plainAnswer = (messages: Messages) =>
    untilFirst(
      post(searcher, '/chat/completions', {
        model: 'chat-v2',
        messages,
        stream: true,
        max_tokens: 4,
        temperature: 0,
      }),
      (e) => Boolean((e.choices as { delta?: { content?: string } }[] | undefined)?.[0]?.delta?.content),
    );
  const promptTokens = async (messages: Messages) =>
    (await (await post(searcher, '/chat/completions', { model: 'chat-v2', messages, max_tokens: 1 })).json()).usage
      .prompt_tokens as number;
  // The plain prompts of the same length: the grounded prompt's layout for another question.
  const samePrompt = async (round: number) => {
    const body = { query: question(round, 1), vector_store_ids: [store], mode: 'search' };
    const { results } = await (await post(searcher, '/data/query', body)).json();
    return groundedPrompt(question(round, 1), results, { contextTokens: 32_768, answerTokens: 512 }).messages;
  };
  const prompts = await Promise.all(Array.from({ length: TTFT_ROUNDS + 1 }, (_, round) => samePrompt(round)));
  // Warm: one of each, then the timed rounds, each a new question.
  await grounded(TTFT_ROUNDS);
  await plainAnswer(prompts[TTFT_ROUNDS]!);
  await plainAnswer([{ role: 'user', content: question(TTFT_ROUNDS, 2) }]);
  const g: number[] = [];
  const p: number[] = [];
  const short: number[] = [];
  for (let i = 0; i < TTFT_ROUNDS; i++) {
    g.push(await grounded(i));
    p.push(await plainAnswer(prompts[i]!));
    short.push(await plainAnswer([{ role: 'user', content: question(i, 2) }]));
  }
  // Prompt lengths, measured after the timed rounds (one token answers, untimed).
  const groundedTokens: number[] = [];
  for (let i = 0; i < TTFT_ROUNDS; i++) {
    const { results } = await (
      await post(searcher, '/data/query', { query: question(i, 0), vector_store_ids: [store], mode: 'search' })
    ).json();
    groundedTokens.push(
      await promptTokens(
        groundedPrompt(question(i, 0), results, { contextTokens: 32_768, answerTokens: 512 }).messages,
      ),
    );
  }
  const plainTokens = await Promise.all(prompts.slice(0, TTFT_ROUNDS).map((messages) => promptTokens(messages)));
  const ttftNotes = {
    ...notes,
    chat: `${urls.chat} (Qwen2.5-0.5B layer sizes, 2 layers, fp32)`,
    passages: 5,
    rounds: TTFT_ROUNDS,
    promptTokens: { grounded: percentile(groundedTokens, 50), plain: percentile(plainTokens, 50) },
    plainShortQuestionMs: percentile(short, 50),
  };
  env.log(
    `first token: grounded ${percentile(g, 50).toFixed(0)} ms (${percentile(groundedTokens, 50)} prompt tokens), plain same length ${percentile(p, 50).toFixed(0)} ms (${percentile(plainTokens, 50)}), plain bare question ${percentile(short, 50).toFixed(0)} ms`,
  );
  rows.push(
    row(
      'data.query.ttft',
      'time to first token, grounded answer (retrieval + passages) vs a plain chat answer to a prompt of the same length',
      'ms',
      percentile(g, 50),
      { name: 'plain chat answer, same prompt length', value: percentile(p, 50) },
      false,
      ttftNotes,
    ),
  );
  rows.push(
    row(
      'data.query.ttft.short',
      'time to first token, grounded answer vs a plain chat answer to the bare question (a much shorter prompt)',
      'ms',
      percentile(g, 50),
      { name: 'plain chat answer to the question alone', value: percentile(short, 50) },
      false,
      ttftNotes,
    ),
  );
  searcher.dispose();
  await new Promise<void>((resolve) => {
    const request = indexedDB.deleteDatabase(database);
    request.onsuccess = request.onerror = request.onblocked = () => resolve();
  });
  return rows;
};

export default grounded;
