import { afterEach, describe, expect, it } from 'vitest';
import type { EngineFactory } from '../../../../src/page/engines/_registry';
import type { ChatEngine, ChatParams } from '../../../../src/protocol/chat';
import type { DataEngine, SearchResult } from '../../../../src/protocol/data';
import { EngineError } from '../../../../src/protocol/errors';
import { scriptedChat } from '../../../support/chat-engine';
import { installPromptApi } from '../../../support/prompt-api';
import { startRemote } from '../../../support/remote-server';
import { BASE, postJson, service } from '../helpers';

const passage: SearchResult = {
  file_id: 'file-1',
  filename: 'harbour.md',
  score: 0.9,
  attributes: {},
  content: [{ type: 'text', text: 'Boats leave from pier seven.' }],
  chunk: { id: 'c1', index: 0, headings: [] },
};

/** A data engine whose every search finds the one passage. */
const data: EngineFactory<'data'> = {
  kind: 'data',
  models: ['embed-v1'],
  info: () => ({ backends: ['wasm'] }),
  create: () => ({ search: async () => [passage], dispose() {} }) as unknown as DataEngine & { dispose(): void },
};

const ask = { query: 'Where do boats leave?', vector_store_ids: ['vs_1'] };
const ANSWER = ['Pier seven [', '1] at dawn [', '4].'];

let remote: Awaited<ReturnType<typeof startRemote>> | undefined;
afterEach(async () => {
  delete (globalThis as { LanguageModel?: unknown }).LanguageModel;
  await remote?.close();
  remote = undefined;
});

/** The data: events of an SSE body. */
const events = async (res: Response) =>
  (await res.text())
    .split('\n\n')
    .filter((e) => e.startsWith('data: ') && e !== 'data: [DONE]')
    .map((e) => JSON.parse(e.slice(6)));

describe('POST /data/query on the chat service', () => {
  it('reads the local engine’s deltas: grounded params with the table’s defaults, invented markers removed', async () => {
    const { factory, seen } = scriptedChat(ANSWER);
    const ai = service({}, [data, factory]);
    const whole = await (await ai.fetch(`${BASE}/data/query`, postJson(ask))).json();
    expect(whole).toMatchObject({
      object: 'data.query',
      answer: { content: 'Pier seven [1] at dawn.' },
      invented_citations: [4],
      finish_reason: 'stop',
      usage: { completion_tokens: 3 },
    });
    expect(seen[0]).toMatchObject({ model: 'chat-v2', temperature: 0.7, top_p: 1, max_tokens: 512, stop: [] });
    expect(seen[0]!.messages.at(-1)!.content).toContain('Where do boats leave?');

    const streamed = await events(await ai.fetch(`${BASE}/data/query`, postJson({ ...ask, stream: true })));
    expect(streamed[0].object).toBe('data.query.results');
    expect(
      streamed
        .filter((e) => e.object === 'data.query.chunk')
        .map((e) => e.delta.content)
        .join(''),
    ).toBe('Pier seven [1] at dawn.');
    expect(streamed.at(-1)).toMatchObject({ object: 'data.query', invented_citations: [4], finish_reason: 'stop' });
  });

  it('a chat model routed to the remote: its /chat/completions, whole and streamed (SSE parsed)', async () => {
    remote = await startRemote();
    const ai = service({ remote: { baseURL: remote.url }, routing: { 'chat-v2': 'remote-only' } }, [data]);
    const whole = await (await ai.fetch(`${BASE}/data/query`, postJson({ ...ask, temperature: 0, seed: 3 }))).json();
    expect(whole.answer.content).toMatch(/^remote: /);
    expect(whole.finish_reason).toBe('stop');
    const sent = JSON.parse(remote.requests[0]!.body);
    expect(remote.requests[0]!.url).toBe('/v1/chat/completions');
    expect(sent).toMatchObject({ model: 'chat-v2', temperature: 0, seed: 3, max_tokens: 512, stream: false });

    const streamed = await events(await ai.fetch(`${BASE}/data/query`, postJson({ ...ask, stream: true })));
    const text = streamed
      .filter((e) => e.object === 'data.query.chunk')
      .map((e) => e.delta.content)
      .join('');
    expect(text).toBe(whole.answer.content);
    expect(streamed.at(-1)).toMatchObject({ object: 'data.query', answer: { content: text }, finish_reason: 'stop' });
    expect(JSON.parse(remote.requests[1]!.body)).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("passes a remote's error answer through unchanged, whole and streamed", async () => {
    remote = await startRemote((_, res) => {
      res
        .writeHead(429, { 'content-type': 'application/json', 'x-remote': 'yes' })
        .end('{"error":{"message":"slow down","type":"rate_limit_error","param":null,"code":"x"}}');
      return true;
    });
    const ai = service({ remote: { baseURL: remote.url }, routing: { 'chat-v2': 'remote-only' } }, [data]);
    for (const stream of [false, true]) {
      const res = await ai.fetch(`${BASE}/data/query`, postJson({ ...ask, stream }));
      expect(res.status).toBe(429);
      expect(res.headers.get('x-remote')).toBe('yes');
      expect(await res.json()).toEqual({
        error: { message: 'slow down', type: 'rate_limit_error', param: null, code: 'x' },
      });
    }
  });

  it('local first: a local failure before any output goes to the remote', async () => {
    remote = await startRemote();
    const { factory } = scriptedChat([], { failBeforeOutput: new EngineError('unavailable', 'no weights', 'x') });
    const ai = service({ remote: { baseURL: remote.url } }, [data, factory]);
    const res = await ai.fetch(`${BASE}/data/query`, postJson(ask));
    expect((await res.json()).answer.content).toMatch(/^remote: /);
    expect(remote.requests.map((r) => r.url)).toEqual(['/v1/chat/completions']);
  });

  it('an engine failure after the first output ends the stream with its own error (as chat streams do)', async () => {
    const failing: EngineFactory<'chat'> = {
      kind: 'chat',
      models: ['chat-v2'],
      info: () => ({ backends: ['script'] }),
      create: () => ({
        async complete(_params, hooks) {
          hooks.onStart({ backend: 'script' });
          hooks.onDelta({ content: 'Pier' });
          throw new EngineError('busy', 'The engine is busy.', 'engine_busy');
        },
        dispose() {},
      }),
    };
    const streamed = await events(
      await service({}, [data, failing]).fetch(`${BASE}/data/query`, postJson({ ...ask, stream: true })),
    );
    expect(streamed.at(-2)).toEqual({ object: 'data.query.chunk', delta: { content: 'Pier' } });
    expect(streamed.at(-1)).toEqual({
      error: { message: 'The engine is busy.', type: 'rate_limit_error', param: null, code: 'engine_busy' },
    });
  });

  it("follows routing's prefer list: the browser's built-in model first, then the local engine", async () => {
    installPromptApi();
    const { factory, seen } = scriptedChat(ANSWER);
    const prefer = (order: ('builtin' | 'local')[]) => ({ routing: { 'chat-v2': { prefer: order } } });
    const builtin = await (
      await service(prefer(['builtin', 'local']), [data, factory]).fetch(`${BASE}/data/query`, postJson(ask))
    ).json();
    expect(builtin.answer.content).toMatch(/^You said: /);
    expect(seen).toEqual([]);
    delete (globalThis as { LanguageModel?: unknown }).LanguageModel;
    const local = await (
      await service(prefer(['builtin', 'local']), [data, factory]).fetch(`${BASE}/data/query`, postJson(ask))
    ).json();
    expect(local.answer.content).toBe('Pier seven [1] at dawn.');
  });

  it('prefills the instructions and rules while retrieval runs; the answer sends them first, whole', async () => {
    const { factory, seen } = scriptedChat(ANSWER);
    const engine = factory.create('chat-v2') as ChatEngine & { dispose(): void };
    const prefilled: ChatParams[] = [];
    let called!: () => void;
    const prefillCalled = new Promise<void>((resolve) => (called = resolve));
    engine.prefill = async (params) => (prefilled.push(params), called(), 12);
    let searched = -1;
    const slow: EngineFactory<'data'> = {
      ...data,
      create: () =>
        ({
          // The search waits (up to 2 s) for the prefill to reach the engine (after the download gate).
          search: async () => {
            await Promise.race([prefillCalled, new Promise((resolve) => setTimeout(resolve, 2000))]);
            searched = prefilled.length;
            return [passage];
          },
          dispose() {},
        }) as unknown as DataEngine & { dispose(): void },
    };
    const ai = service({}, [slow, { ...factory, create: () => engine }]);
    const body = { ...ask, instructions: 'Answer in one line.' };
    expect((await ai.fetch(`${BASE}/data/query`, postJson(body))).status).toBe(200);
    // Sent while the search ran, on the system message as far as it is known without passages.
    expect(searched).toBe(1);
    const preamble = prefilled[0]!.messages;
    expect(preamble).toEqual([{ role: 'system', content: expect.stringContaining('Answer in one line.') }]);
    expect(prefilled[0]).toMatchObject({ model: 'chat-v2', max_tokens: 512 });
    const sent = seen[0]!.messages[0]!.content!;
    expect(sent.startsWith(preamble[0]!.content!)).toBe(true);
    expect(sent.length).toBeGreaterThan(preamble[0]!.content!.length);
    // A mode 'search' query asks nothing of the chat engine.
    await ai.fetch(`${BASE}/data/query`, postJson({ ...ask, mode: 'search' }));
    expect(prefilled).toHaveLength(1);
  });
});
