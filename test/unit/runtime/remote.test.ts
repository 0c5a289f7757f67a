import { afterEach, describe, expect, it } from 'vitest';
import { scriptedChat } from '../../support/chat-engine';
import { startRemote } from '../../support/remote-server';
import { AUTH, BASE, postJson, service } from '../api/helpers';

const chat = (content: string, extra: object = {}) => ({
  model: 'chat-v2',
  messages: [{ role: 'user', content }],
  ...extra,
});
let remote: Awaited<ReturnType<typeof startRemote>>;
afterEach(() => remote?.close());

describe('remote fallback', () => {
  it('forwards a model with no local engine, with the configured key', async () => {
    remote = await startRemote();
    const ai = service({ remote: { baseURL: remote.url, apiKey: 'remote-key' } });
    const res = await ai.fetch(`${BASE}/chat/completions?x=1`, postJson(chat('hello there')));
    expect((await res.json()).choices[0].message.content).toBe('remote: hello there');
    expect(remote.requests[0]).toMatchObject({ method: 'POST', url: '/v1/chat/completions?x=1' });
    expect(remote.requests[0]!.headers.authorization).toBe('Bearer remote-key');
  });

  it("passes the caller's key when no remote key is configured", async () => {
    remote = await startRemote();
    await service({ remote: { baseURL: remote.url } }).fetch(`${BASE}/chat/completions`, postJson(chat('a')));
    expect(remote.requests[0]!.headers.authorization).toBe(AUTH.authorization);
  });

  it('returns the remote status and error body as they are', async () => {
    remote = await startRemote((_, res) => {
      res
        .writeHead(429, { 'content-type': 'application/json' })
        .end('{"error":{"message":"slow down","type":"rate_limit_error","param":null,"code":"x"}}');
      return true;
    });
    const res = await service({ remote: { baseURL: remote.url } }).fetch(
      `${BASE}/chat/completions`,
      postJson(chat('a')),
    );
    expect(res.status).toBe(429);
    expect((await res.json()).error.message).toBe('slow down');
    expect(remote.requests).toHaveLength(1);
  });

  it('retries a non-streaming request after a 500, with backoff', async () => {
    remote = await startRemote((_, res, count) => {
      if (count > 1) return false;
      res.writeHead(500).end('boom');
      return true;
    });
    const ai = service({ remote: { baseURL: remote.url, backoffMs: 10 } });
    const res = await ai.fetch(`${BASE}/chat/completions`, postJson(chat('again')));
    expect(res.status).toBe(200);
    expect(remote.requests).toHaveLength(2);
  });

  it('never replays a streaming request', async () => {
    remote = await startRemote((_, res) => {
      res.writeHead(503).end('down');
      return true;
    });
    const res = await service({ remote: { baseURL: remote.url, backoffMs: 10 } }).fetch(
      `${BASE}/chat/completions`,
      postJson(chat('a', { stream: true })),
    );
    expect(res.status).toBe(503);
    expect(remote.requests).toHaveLength(1);
  });

  it('answers 502 remote_unreachable when the remote is down', async () => {
    remote = await startRemote();
    const url = remote.url;
    await remote.close();
    const res = await service({ remote: { baseURL: url, backoffMs: 5 } }).fetch(
      `${BASE}/chat/completions`,
      postJson(chat('a')),
    );
    expect(res.status).toBe(502);
    expect((await res.json()).error.code).toBe('remote_unreachable');
  });

  it('local-first falls back to the remote when the engine fails before its first output', async () => {
    remote = await startRemote();
    const { factory } = scriptedChat([], { failBeforeOutput: new Error('weights unavailable') });
    const res = await service({ remote: { baseURL: remote.url } }, [factory]).fetch(
      `${BASE}/chat/completions`,
      postJson(chat('b')),
    );
    expect((await res.json()).choices[0].message.content).toBe('remote: b');
  });

  it('per-model routing: remote-only for one id, local for the rest', async () => {
    remote = await startRemote();
    const { factory } = scriptedChat(['local']);
    const ai = service({ remote: { baseURL: remote.url }, routing: { 'chat-v2': 'remote-only' } }, [factory]);
    expect(
      (await (await ai.fetch(`${BASE}/chat/completions`, postJson(chat('c')))).json()).choices[0].message.content,
    ).toBe('remote: c');
    const localOnly = service({ remote: { baseURL: remote.url }, routing: 'local-only' }, [factory]);
    expect(
      (await (await localOnly.fetch(`${BASE}/chat/completions`, postJson(chat('c')))).json()).choices[0].message
        .content,
    ).toBe('local');
  });

  it('remote-first uses the local engine when the remote is unreachable', async () => {
    remote = await startRemote();
    const url = remote.url;
    await remote.close();
    const { factory } = scriptedChat(['local']);
    const ai = service({ remote: { baseURL: url, attempts: 1 }, routing: 'remote-first' }, [factory]);
    expect(
      (await (await ai.fetch(`${BASE}/chat/completions`, postJson(chat('c')))).json()).choices[0].message.content,
    ).toBe('local');
  });

  it('memory and data forward to a configured remote', async () => {
    remote = await startRemote();
    const res = await service({ remote: { baseURL: remote.url } }).fetch(
      `${BASE}/memory/store`,
      postJson({ text: 'x' }),
    );
    expect(await res.json()).toEqual({ remote: true, path: '/v1/memory/store' });
  });
});
