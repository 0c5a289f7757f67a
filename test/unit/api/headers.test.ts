import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/page/api/http/errors';
import { scriptedChat } from '../../support/chat-engine';
import { startRemote } from '../../support/remote-server';
import { BASE, postJson, service } from './helpers';

const chat = { model: 'chat-v2', messages: [{ role: 'user', content: 'hi' }] };
let remote: Awaited<ReturnType<typeof startRemote>> | undefined;
afterEach(() => remote?.close());

/** An openai SDK with its default retries (2) that counts what it sends. */
function countingClient(fetch: typeof globalThis.fetch) {
  const sent: string[] = [];
  const client = new OpenAI({
    baseURL: BASE,
    apiKey: 'test-key',
    fetch: (url, init) => {
      sent.push(String(url));
      return fetch(url, init);
    },
  });
  return { client, sent };
}

describe('headers every SDK reads', () => {
  it('x-request-id on every answer: success, 400, 401, 404, each its own', async () => {
    const { factory } = scriptedChat(['a']);
    const ai = service({}, [factory]);
    const answers = [
      await ai.fetch(`${BASE}/chat/completions`, postJson(chat)),
      await ai.fetch(`${BASE}/chat/completions`, postJson({ ...chat, temperature: 9 })),
      await ai.fetch(`${BASE}/models`),
      await ai.fetch(`${BASE}/nope`, postJson({})),
    ];
    expect(answers.map((res) => res.status)).toEqual([200, 400, 401, 404]);
    const ids = answers.map((res) => res.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(new Set(ids).size).toBe(4);
  });

  it("a forwarded answer keeps the remote's x-request-id, or gets one", async () => {
    remote = await startRemote();
    const ai = service({ remote: { baseURL: remote.url } });
    const res = await ai.fetch(`${BASE}/chat/completions`, postJson(chat));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('x-should-retry false on what a retry cannot fix, true with Retry-After on engine_busy and a crash', () => {
    for (const [error, retry] of [
      [new ApiError(400, 'x', 'invalid_value'), 'false'],
      [new ApiError(404, 'x', 'model_not_found'), 'false'],
      [new ApiError(501, 'x', 'coming_soon'), 'false'],
      [new ApiError(503, 'x', 'model_unavailable'), 'false'],
      [new ApiError(500, 'x', 'internal_error'), 'false'],
      [new ApiError(503, 'x', 'engine_crashed'), 'true'],
    ] as const)
      expect(error.toResponse().headers.get('x-should-retry'), error.code!).toBe(retry);
    const busy = new ApiError(429, 'busy', 'engine_busy', null, { 'retry-after': '1' }).toResponse();
    expect(busy.headers.get('x-should-retry')).toBe('true');
    expect(busy.headers.get('retry-after')).toBe('1');
  });

  it('the openai SDK with default retries sends a request that cannot succeed exactly once', async () => {
    const { factory } = scriptedChat([], {
      failBeforeOutput: new ApiError(503, 'The chat model could not be loaded.', 'model_unavailable', 'model'),
    });
    const ai = service({}, [factory]);
    const { client, sent } = countingClient(ai.fetch);
    const error = await client.chat.completions.create(chat as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.InternalServerError);
    expect((error as { code: string }).code).toBe('model_unavailable');
    expect(sent).toHaveLength(1);

    const bad = countingClient(ai.fetch);
    await expect(bad.client.chat.completions.create({ ...chat, top_p: 7 } as never)).rejects.toThrow(
      OpenAI.BadRequestError,
    );
    expect(bad.sent).toHaveLength(1);
  });

  it('an error inside a stream keeps its own code', async () => {
    const { factory } = scriptedChat([]);
    const ai = service({}, [factory]);
    const engine = factory.create({} as never);
    engine.complete = async (_params, hooks) => {
      hooks.onStart({ backend: 'script' });
      hooks.onDelta({ content: 'a' });
      throw new ApiError(503, 'The chat engine stopped: its worker crashed.', 'engine_crashed');
    };
    const { client } = countingClient(ai.fetch);
    const stream = await client.chat.completions.create({ ...chat, messages: chat.messages as never, stream: true });
    const error = await (async () => {
      for await (const _ of stream);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as { code: string }).code).toBe('engine_crashed');
    expect((error as Error).message).toContain('worker crashed');
  });
});
