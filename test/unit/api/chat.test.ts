import { describe, expect, it } from 'vitest';
import { scriptedChat } from '../../support/chat-engine';
import { BASE, postJson, service } from './helpers';

const request = { model: 'chat-v2', messages: [{ role: 'user', content: [{ type: 'text', text: 'नमस्ते' }] }] };

async function events(res: Response) {
  const text = await res.text();
  expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((line) => {
      expect(line.startsWith('data: ')).toBe(true);
      return line.slice(6);
    });
}

describe('POST /chat/completions', () => {
  it('answers a chat.completion object with usage and the backend header', async () => {
    const { factory, seen } = scriptedChat(['नम', 'स्ते']);
    const res = await service({}, [factory]).fetch(
      `${BASE}/chat/completions`,
      postJson({ ...request, stop: 'x', max_tokens: 5 }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('x-vaani-backend')).toBe('script');
    const body = await res.json();
    expect(body).toMatchObject({
      object: 'chat.completion',
      model: 'chat-v2',
      choices: [{ index: 0, message: { role: 'assistant', content: 'नमस्ते' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(seen[0]).toMatchObject({
      temperature: 0.7,
      top_p: 1,
      stop: ['x'],
      max_tokens: 5,
      messages: [{ role: 'user', content: 'नमस्ते' }],
    });
  });

  it('streams chunks, a final empty delta with finish_reason stop, then [DONE]', async () => {
    const { factory } = scriptedChat(['a', 'b']);
    const res = await service({}, [factory]).fetch(`${BASE}/chat/completions`, postJson({ ...request, stream: true }));
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const data = (await events(res)).slice(0, -1).map((e) => JSON.parse(e));
    expect(data.map((c) => c.choices[0].delta)).toEqual([
      { role: 'assistant', content: '' },
      { content: 'a' },
      { content: 'b' },
      {},
    ]);
    expect(data.map((c) => c.choices[0].finish_reason)).toEqual([null, null, null, 'stop']);
    expect(new Set(data.map((c) => c.id)).size).toBe(1);
    expect(data.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
  });

  it('adds a usage chunk when stream_options.include_usage', async () => {
    const { factory } = scriptedChat(['a']);
    const res = await service({}, [factory]).fetch(
      `${BASE}/chat/completions`,
      postJson({ ...request, stream: true, stream_options: { include_usage: true } }),
    );
    const data = (await events(res)).slice(0, -1).map((e) => JSON.parse(e));
    expect(data.at(-1)).toMatchObject({ choices: [], usage: { completion_tokens: 1 } });
    expect(data.slice(0, -1).every((c) => c.usage === null)).toBe(true);
  });

  it('gathers tool-call deltas into message.tool_calls, and streams them as they come', async () => {
    const deltas = [
      {
        tool_calls: [
          { index: 0, id: 'call_1', type: 'function' as const, function: { name: 'weather', arguments: '' } },
        ],
      },
      { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '"Pune"}' } }] },
    ];
    const { factory } = scriptedChat(deltas, { finish: 'tool_calls' });
    const body = await (await service({}, [factory]).fetch(`${BASE}/chat/completions`, postJson(request))).json();
    expect(body.choices[0]).toMatchObject({
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Pune"}' } }],
      },
    });
    const streamed = await service({}, [scriptedChat(deltas, { finish: 'tool_calls' }).factory]).fetch(
      `${BASE}/chat/completions`,
      postJson({ ...request, stream: true }),
    );
    const chunks = (await events(streamed)).slice(0, -1).map((e) => JSON.parse(e));
    expect(chunks.slice(1, 4).map((c) => c.choices[0].delta)).toEqual(deltas);
    expect(chunks.at(-1).choices[0]).toMatchObject({ delta: {}, finish_reason: 'tool_calls' });
  });

  it('stops the engine when the request is aborted mid-stream', async () => {
    const { factory } = scriptedChat(
      Array.from({ length: 200 }, () => 'x'),
      { delayMs: 5 },
    );
    const controller = new AbortController();
    const res = await service({}, [factory]).fetch(`${BASE}/chat/completions`, {
      ...postJson({ ...request, stream: true }),
      signal: controller.signal,
    });
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    await expect(async () => {
      for (;;) if ((await reader.read()).done) break;
    }).rejects.toThrow();
  });

  it('rejects with AbortError when aborted before the answer', async () => {
    const { factory } = scriptedChat(['a'], { delayMs: 200 });
    const controller = new AbortController();
    const pending = service({}, [factory]).fetch(`${BASE}/chat/completions`, {
      ...postJson(request),
      signal: controller.signal,
    });
    controller.abort();
    await expect(pending).rejects.toThrow(/abort/i);
  });
});
