import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { DataEngine, SearchResult } from '../../../../src/protocol/data';
import type { EngineFactory } from '../../../../src/page/engines/_registry';
import { scriptedChat } from '../../../support/chat-engine';
import { AUTH, BASE, service } from '../helpers';

const call = { tool_calls: [{ index: 0, id: 'call_0', type: 'function' as const, function: { name: 'f' } }] };
const args = { tool_calls: [{ index: 0, function: { arguments: '{}' } }] };

const passage: SearchResult = {
  file_id: 'file-1',
  filename: 'rail.md',
  score: 0.9,
  attributes: {},
  content: [{ type: 'text', text: 'The Rajdhani leaves at 16:55.' }],
  chunk: { id: 'c1', index: 0, headings: [] },
};

/** A data engine that finds one passage, for the file_search tool. */
const dataEngine: EngineFactory<'data'> = {
  kind: 'data',
  models: ['embed-v1'],
  info: () => ({ backends: ['script'] }),
  create: () => ({ search: async () => [passage], dispose() {} }) as unknown as DataEngine & { dispose(): void },
};

function client(pieces: Parameters<typeof scriptedChat>[0], extra: EngineFactory<'data'>[] = []) {
  const { factory } = scriptedChat(pieces);
  const ai = service({}, [factory, ...extra]);
  return { ai, openai: new OpenAI({ baseURL: BASE, apiKey: 'k', fetch: ai.fetch }) };
}

describe('GET /responses/{id}/input_items', () => {
  it('lists the input with ids, newest first by default; asc and limit page through with after and before', async () => {
    const { openai } = client(['ok']);
    const input = [
      { role: 'system' as const, content: 'Be brief.' },
      { role: 'user' as const, content: [{ type: 'input_text' as const, text: 'one' }] },
      { role: 'assistant' as const, content: 'two' },
      { type: 'function_call' as const, call_id: 'call_9', name: 'f', arguments: '{}', id: 'fc_given' },
      { type: 'function_call_output' as const, call_id: 'call_9', output: '27' },
      { role: 'user' as const, content: 'three' },
    ];
    const response = await openai.responses.create({ model: 'chat-v2', input });
    const page = await openai.responses.inputItems.list(response.id);
    expect(page.data.map((item) => item.type)).toEqual([
      'message',
      'function_call_output',
      'function_call',
      'message',
      'message',
      'message',
    ]);
    const asc = (await openai.responses.inputItems.list(response.id, { order: 'asc' })).data;
    expect(asc).toEqual([...page.data].reverse());
    expect(asc).toEqual([
      {
        id: expect.stringMatching(/^msg_/),
        type: 'message',
        status: 'completed',
        role: 'system',
        content: [{ type: 'input_text', text: 'Be brief.' }],
      },
      {
        id: expect.stringMatching(/^msg_/),
        type: 'message',
        status: 'completed',
        role: 'user',
        content: [{ type: 'input_text', text: 'one' }],
      },
      {
        id: expect.stringMatching(/^msg_/),
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'two', annotations: [], logprobs: [] }],
      },
      { id: 'fc_given', type: 'function_call', status: 'completed', call_id: 'call_9', name: 'f', arguments: '{}' },
      {
        id: expect.stringMatching(/^fco_/),
        type: 'function_call_output',
        status: 'completed',
        call_id: 'call_9',
        output: '27',
      },
      {
        id: expect.stringMatching(/^msg_/),
        type: 'message',
        status: 'completed',
        role: 'user',
        content: [{ type: 'input_text', text: 'three' }],
      },
    ]);
    expect(new Set(asc.map((item) => item.id)).size).toBe(6);

    const first = await openai.responses.inputItems.list(response.id, { order: 'asc', limit: 4 });
    expect(first.data).toEqual(asc.slice(0, 4));
    expect(first.has_more).toBe(true);
    const raw = await openai.get(`/responses/${response.id}/input_items?order=asc&limit=4`);
    expect(raw).toMatchObject({ object: 'list', first_id: asc[0]!.id, last_id: asc[3]!.id, has_more: true });
    const second = await first.getNextPage();
    expect(second.data).toEqual(asc.slice(4));
    expect(second.has_more).toBe(false);
    expect(first.hasNextPage() && !second.hasNextPage()).toBe(true);
    const all = [];
    for await (const item of openai.responses.inputItems.list(response.id, { limit: 2 })) all.push(item);
    expect(all).toEqual(page.data);
    // `before` (in OpenAI's API reference, not in this SDK's types): the page just before that item.
    const before = await openai.get<{ data: unknown[] }>(
      `/responses/${response.id}/input_items?order=asc&limit=2&before=${asc[4]!.id}`,
    );
    expect(before.data).toEqual(asc.slice(2, 4));
  });

  it('a previous_response_id chain lists the earlier inputs and outputs first, as OpenAI does', async () => {
    const { openai } = client([call, args]);
    const first = await openai.responses.create({ model: 'chat-v2', input: 'weather?' });
    const second = await openai.responses.create({
      model: 'chat-v2',
      previous_response_id: first.id,
      input: [{ type: 'function_call_output', call_id: 'call_0', output: '27' }],
    });
    const third = await openai.responses.create({ model: 'chat-v2', previous_response_id: second.id, input: 'thanks' });
    const firstItems = (await openai.responses.inputItems.list(first.id, { order: 'asc' })).data;
    const items = (await openai.responses.inputItems.list(third.id, { order: 'asc' })).data;
    expect(items.map((item) => item.type)).toEqual([
      'message',
      'function_call',
      'function_call_output',
      'function_call',
      'message',
    ]);
    expect(items[0]).toEqual(firstItems[0]);
    expect(items[1]).toEqual(first.output[0]);
    expect(items[3]).toEqual(second.output[0]);
    expect(items[4]).toMatchObject({ role: 'user', content: [{ type: 'input_text', text: 'thanks' }] });
  });

  it('a file_search_call shows its results only with include[]=file_search_call.results', async () => {
    const { openai } = client(['16:55 [1]'], [dataEngine]);
    const first = await openai.responses.create({
      model: 'chat-v2',
      input: 'When does the Rajdhani leave?',
      tools: [{ type: 'file_search', vector_store_ids: ['vs_1'] }],
    });
    expect(first.output[0]).toMatchObject({ type: 'file_search_call', results: null });
    const next = await openai.responses.create({ model: 'chat-v2', previous_response_id: first.id, input: 'thanks' });
    const plain = (await openai.responses.inputItems.list(next.id, { order: 'asc' })).data;
    expect(plain[1]).toMatchObject({ type: 'file_search_call', results: null });
    const included = await openai.responses.inputItems.list(next.id, {
      order: 'asc',
      include: ['file_search_call.results'],
    });
    expect(included.data[1]).toMatchObject({
      type: 'file_search_call',
      results: [{ file_id: 'file-1', filename: 'rail.md', text: 'The Rajdhani leaves at 16:55.' }],
    });
  });

  it('404 for an unknown or unstored response, 400 for a bad query, 405 for other methods', async () => {
    const { ai, openai } = client(['ok']);
    const error = async (res: Response) => ({ status: res.status, ...(await res.json()).error });
    const get = (path: string, init: RequestInit = {}) => ai.fetch(`${BASE}${path}`, { headers: AUTH, ...init });
    expect(await error(await get('/responses/resp_nope/input_items'))).toMatchObject({
      status: 404,
      code: 'response_not_found',
    });
    const unstored = await openai.responses.create({ model: 'chat-v2', input: 'x', store: false });
    expect((await get(`/responses/${unstored.id}/input_items`)).status).toBe(404);
    const kept = await openai.responses.create({ model: 'chat-v2', input: 'x' });
    expect(await error(await get(`/responses/${kept.id}/input_items?limit=0`))).toMatchObject({
      status: 400,
      param: 'limit',
    });
    expect(await error(await get(`/responses/${kept.id}/input_items?after=msg_nope`))).toMatchObject({
      status: 400,
      param: 'after',
    });
    const post = await get(`/responses/${kept.id}/input_items`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
    expect((await get(`/responses/${kept.id}/input_items`)).status).toBe(200);
  });
});
