import { expect, test, type Page } from '@playwright/test';
import { ensureEncoderFixture, type EncoderFixtureLocation } from '../fixtures/encoder/fixture-dir';
import { tinyXlmr } from '../fixtures/encoder/spec';
import { ensureDecoderFixture, type FixtureLocation } from '../fixtures/llm/fixture-dir';
import { tinyLlama } from '../fixtures/llm/spec';
import { openHarness } from './support/page';

const PAGE = '/test/browser/pages/data.html';
/** The scripted answer, cut into tokens so that markers straddle stream deltas; [7] names no passage. */
const ANSWER = ['Boats leave from pier seven [', '1] and the keeper logs the weather at noon [', '7].'];
const CLEAN = 'Boats leave from pier seven [1] and the keeper logs the weather at noon.';
const DOC =
  '# Harbour guide\n\nBoats leave from pier seven at dawn.\n\n## Lighthouse\n\nThe keeper writes the weather log at noon.\n';

let encoder: EncoderFixtureLocation;
let chat: FixtureLocation;
test.beforeAll(async () => {
  encoder = await ensureEncoderFixture('tiny-xlmr', tinyXlmr);
  chat = await ensureDecoderFixture('tiny-grounded-answer', {
    ...tinyLlama,
    dtypes: ['fp32'],
    seed: 7,
    scripted: { chain: ['Ċ', ...ANSWER, '<|im_end|>'], addedTokens: ANSWER },
  });
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A Vaani with the fixture encoder and scripted chat model, a store holding DOC and an empty one; POSTs /data/query bodies. */
async function run(page: Page, bodies: Json[]) {
  return page.evaluate(
    async ({ encoder, chat, doc, bodies }) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: { 'embed-v1': { baseURL: encoder, dtype: 'fp32' }, 'chat-v2': { baseURL: chat } },
      });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
      });
      const file = await client.files.create({ file: new File([doc], 'harbour.md'), purpose: 'assistants' });
      const store = await client.vectorStores.create({ name: 'harbour' });
      await client.vectorStores.files.createAndPoll(store.id, { file_id: file.id, attributes: { lang: 'en' } });
      const empty = await client.vectorStores.create({ name: 'empty' });
      const answers = [];
      for (const body of bodies) {
        const ids = (body.vector_store_ids as string[] | undefined)?.map((id) =>
          id === 'STORE' ? store.id : id === 'EMPTY' ? empty.id : id,
        );
        const response = await ai.fetch(`${ai.baseURL}/data/query`, {
          method: 'POST',
          headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
          body: JSON.stringify({
            ...body,
            ...(ids ? { vector_store_ids: ids } : {}),
            ...(body.dataset === 'STORE' ? { dataset: store.id } : {}),
          }),
        });
        const text = await response.text();
        const events = response.headers.get('content-type')?.startsWith('text/event-stream')
          ? text
              .split('\n\n')
              .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
              .map((line) => JSON.parse(line.slice(6)))
          : undefined;
        answers.push({ status: response.status, json: events ? undefined : JSON.parse(text), events, file: file.id });
      }
      ai.dispose();
      return answers;
    },
    { encoder: encoder.url, chat: chat.url, doc: DOC, bodies },
  ) as Promise<{ status: number; json?: Json; events?: Json[]; file: string }[]>;
}

test('grounded answers: citations point at the real chunk, invented ones are removed, whole and streamed', async ({
  page,
}) => {
  const errors = await openHarness(page, PAGE);
  const ask = { model: 'chat-v2', query: 'Where do boats leave from?', vector_store_ids: ['STORE'], temperature: 0 };
  const [whole, streamed, search] = await run(page, [ask, { ...ask, stream: true }, { ...ask, mode: 'search' }]);

  expect(whole!.status).toBe(200);
  const answer = whole!.json!;
  expect(answer).toMatchObject({ object: 'data.query', mode: 'answer', model: 'chat-v2', invented_citations: [7] });
  expect(answer.answer.content).toBe(CLEAN);
  expect(answer.results.length).toBeGreaterThan(0);
  expect(answer.results[0]).toMatchObject({ passage: 1, file_id: whole!.file, filename: 'harbour.md' });
  expect(answer.answer.annotations).toEqual([
    {
      type: 'file_citation',
      index: CLEAN.indexOf('[1]'),
      file_id: whole!.file,
      filename: 'harbour.md',
      passage: 1,
      quote: answer.results[0].content[0].text,
    },
  ]);
  expect(answer.usage.completion_tokens).toBe(ANSWER.length);

  const events = streamed!.events!;
  expect(events[0]).toMatchObject({ object: 'data.query.results' });
  const deltas = events.filter((event) => event.object === 'data.query.chunk');
  expect(deltas.length).toBeGreaterThan(1);
  expect(deltas.map((event) => event.delta.content).join('')).toBe(CLEAN);
  expect(events.at(-1)).toMatchObject({
    object: 'data.query',
    answer: { content: CLEAN, annotations: answer.answer.annotations },
    invented_citations: [7],
  });

  expect(search!.json).toMatchObject({ object: 'data.query', mode: 'search' });
  expect(search!.json!.answer).toBeUndefined();
  expect(search!.json!.results[0]).toMatchObject({ passage: 1, file_id: search!.file, attributes: { lang: 'en' } });
  expect(errors).toEqual([]);
});

test('no passage, no guess: an empty store or filters that match nothing answer so without the model; unknown stores are 404', async ({
  page,
}) => {
  const errors = await openHarness(page, PAGE);
  const ask = { model: 'chat-v2', query: 'Where do boats leave from?' };
  const [empty, filtered, unknown, noStores, badModel, after, dataset] = await run(page, [
    { ...ask, vector_store_ids: ['EMPTY'] },
    { ...ask, vector_store_ids: ['STORE'], filters: { type: 'eq', key: 'lang', value: 'hi' }, stream: true },
    { ...ask, vector_store_ids: ['vs_missing'] },
    { ...ask },
    { ...ask, model: 'embed-v1', vector_store_ids: ['STORE'] },
    { ...ask, vector_store_ids: ['STORE'], temperature: 0 },
    { ...ask, dataset: 'STORE', temperature: 0 },
  ]);
  for (const json of [empty!.json!, filtered!.events!.at(-1)!]) {
    expect(json).toMatchObject({ finish_reason: 'no_passages', results: [], answer: { annotations: [] } });
    expect(json.answer.content).toMatch(/documents do not say/);
  }
  expect(unknown).toMatchObject({ status: 404, json: { error: { code: 'vector_store_not_found' } } });
  expect(noStores).toMatchObject({ status: 400, json: { error: { type: 'invalid_request_error' } } });
  expect(badModel).toMatchObject({ status: 400, json: { error: { code: 'model_not_supported', param: 'model' } } });
  expect(after!.json!.answer.content).toBe(CLEAN);
  expect(dataset!.json!.answer.content).toBe(CLEAN);
  expect(errors).toEqual([]);
});

test('ai.data: add with progress events (a bad file fails alone), search, and ask with streamed text', async ({
  page,
}) => {
  const errors = await openHarness(page, PAGE);
  const got = await page.evaluate(
    async ({ encoder, chat, doc }) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: { 'embed-v1': { baseURL: encoder, dtype: 'fp32' }, 'chat-v2': { baseURL: chat } },
      });
      const progress: string[] = [];
      ai.data.addEventListener('progress', (event) => {
        const { filename, status, last_error } = (event as CustomEvent).detail;
        progress.push(`${filename} ${status}${last_error ? ` ${last_error.code}` : ''}`);
      });
      const added = await ai.data.add([new File([doc], 'harbour.md'), new File(['%PDF-1.7 nonsense'], 'broken.pdf')], {
        attributes: { lang: 'en' },
      });
      const hits = await ai.data.search('pier seven', { max_num_results: 1 });
      const both = await ai.data.search('pier seven', { stores: [added.store, added.store] });
      let streamed = '';
      const answer = await ai.data.ask('Where do boats leave from?', {
        model: 'chat-v2',
        onText: (text) => (streamed += text),
      });
      const missing = await ai.data
        .search('x', { stores: ['vs_missing'] })
        .catch((error: Error & { status: number; code: string }) => ({
          name: error.name,
          classes: [window.Vaani.NotFoundError, window.Vaani.DataError].map((Class) => error instanceof Class),
          status: error.status,
          code: error.code,
        }));
      ai.dispose();
      return {
        store: added.store,
        defaultStore: await ai.data.defaultStore(),
        statuses: added.files.map((file) => file.status).sort(),
        progress: progress.sort(),
        hit: hits[0]!.content[0]!.text,
        both: both.length,
        streamed,
        answer: answer.answer.content,
        citations: answer.answer.annotations.length,
        missing,
      };
    },
    { encoder: encoder.url, chat: chat.url, doc: DOC },
  );
  expect(got.store).toBe(got.defaultStore);
  expect(got.statuses).toEqual(['completed', 'failed']);
  const ends = got.progress.filter((line) => !line.endsWith('in_progress'));
  expect(ends).toEqual(['broken.pdf failed invalid_file', 'harbour.md completed']);
  expect(got.hit).toContain('pier seven');
  expect(got.both).toBeGreaterThan(0);
  expect(got.streamed).toBe(CLEAN);
  expect(got.answer).toBe(CLEAN);
  expect(got.citations).toBe(1);
  expect(got.missing).toEqual({
    name: 'NotFoundError',
    classes: [true, true],
    status: 404,
    code: 'vector_store_not_found',
  });
  expect(errors).toEqual([]);
});

test('the Responses API file_search tool: a file_search_call with results, then an answer whose citations are file_citation annotations, whole and streamed', async ({
  page,
}) => {
  const errors = await openHarness(page, PAGE);
  const got = await page.evaluate(
    async ({ encoder, chat, doc }) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: { 'embed-v1': { baseURL: encoder, dtype: 'fp32' }, 'chat-v2': { baseURL: chat } },
      });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
      });
      const { store, files } = await ai.data.add(new File([doc], 'harbour.md'));
      const request = {
        model: 'chat-v2',
        input: 'Where do boats leave from?',
        instructions: 'Answer briefly.',
        temperature: 0,
        tools: [{ type: 'file_search' as const, vector_store_ids: [store], max_num_results: 3 }],
        include: ['file_search_call.results' as const],
      };
      const whole = await client.responses.create(request);
      const stream = client.responses.stream(request);
      const types: string[] = [];
      for await (const event of stream) types.push(event.type);
      const streamed = await stream.finalResponse();
      const bare = await client.responses.create({ ...request, include: [] });
      const missing = await client.responses
        .create({ ...request, tools: [{ type: 'file_search', vector_store_ids: ['vs_missing'] }] })
        .catch((error: { status: number; code: string }) => ({ status: error.status, code: error.code }));
      ai.dispose();
      return {
        file: files[0]!.id,
        whole,
        streamed,
        types,
        bareResults: (bare.output[0] as { results: unknown }).results,
        missing,
      };
    },
    { encoder: encoder.url, chat: chat.url, doc: DOC },
  );
  for (const response of [got.whole, got.streamed]) {
    const [call, message] = response.output as Json[];
    expect(call).toMatchObject({
      type: 'file_search_call',
      status: 'completed',
      queries: ['Where do boats leave from?'],
    });
    expect(call!.results[0]).toMatchObject({ file_id: got.file, filename: 'harbour.md' });
    expect(call!.results[0].text).toContain('pier seven');
    expect(message!.content[0]).toMatchObject({
      type: 'output_text',
      text: CLEAN,
      annotations: [{ type: 'file_citation', index: CLEAN.indexOf('[1]'), file_id: got.file, filename: 'harbour.md' }],
    });
  }
  expect(got.types).toEqual(
    expect.arrayContaining([
      'response.file_search_call.searching',
      'response.file_search_call.completed',
      'response.output_text.annotation.added',
      'response.completed',
    ]),
  );
  expect(got.bareResults).toBeNull();
  expect(got.missing).toEqual({ status: 404, code: 'vector_store_not_found' });
  expect(errors).toEqual([]);
});
