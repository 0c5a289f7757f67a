import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedChat } from '../../support/chat-engine';
import { installPromptApi } from '../../support/prompt-api';
import { startRemote } from '../../support/remote-server';
import { AUTH, BASE, postJson, service } from './helpers';

type StandIn = {
  availability: string;
  contextWindow: number;
  failAfterChunks: number;
  calls: { method: string; input: unknown; options: Record<string, unknown> }[];
};
const standIn = () => (globalThis as unknown as { __promptApi: StandIn }).__promptApi;
const BUILTIN_FIRST = { routing: { 'chat-v2': { prefer: ['builtin', 'local'] as ('builtin' | 'local')[] } } };
const messages = [
  { role: 'system' as const, content: 'Be brief.' },
  { role: 'user' as const, content: 'namaste duniya' },
];

let remote: Awaited<ReturnType<typeof startRemote>> | undefined;
afterEach(async () => {
  delete (globalThis as { LanguageModel?: unknown }).LanguageModel;
  await remote?.close();
  remote = undefined;
});

function setup(options: Parameters<typeof installPromptApi>[0] = {}) {
  installPromptApi(options);
  const local = scriptedChat(['local ', 'answer']);
  const ai = service(BUILTIN_FIRST, [local.factory]);
  const client = new OpenAI({ baseURL: BASE, apiKey: 'k', fetch: ai.fetch });
  return { ai, client, local };
}

describe("the browser's own model (Prompt API) as routing's 'builtin'", () => {
  it('streams its answer through the openai SDK, the system prompt as its initial prompt', async () => {
    const { client, local } = setup();
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'chat-v2', messages, stream: true, stream_options: { include_usage: true } })
      .withResponse();
    let text = '';
    let usage;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe('You said: namaste duniya');
    expect(response.headers.get('x-vaani-engine')).toBe('builtin');
    expect(response.headers.get('x-vaani-fallback')).toBeNull();
    expect(usage?.completion_tokens).toBe(5);
    expect(local.seen).toHaveLength(0);
    const create = standIn().calls.find((call) => call.method === 'create')!;
    expect(create.input).toEqual([{ role: 'system', content: 'Be brief.' }]);
  });

  it('gives JSON of the schema through responseConstraint', async () => {
    const { client } = setup();
    const schema = {
      type: 'object',
      properties: { city: { type: 'string' }, people: { type: 'integer' } },
      required: ['city', 'people'],
      additionalProperties: false,
    };
    const answer = await client.chat.completions.create({
      model: 'chat-v2',
      messages,
      response_format: { type: 'json_schema', json_schema: { name: 'place', schema, strict: true } },
    });
    expect(JSON.parse(answer.choices[0]!.message.content!)).toEqual({ city: 'namaste', people: 7 });
    const prompt = standIn().calls.find((call) => call.method === 'promptStreaming')!;
    expect(prompt.options.responseConstraint).toEqual(schema);
  });

  it('stops at a stop string and at max_tokens, with the finish reason', async () => {
    const { client } = setup();
    const stopped = await client.chat.completions.create({ model: 'chat-v2', messages, stop: ['namaste'] });
    expect(stopped.choices[0]!.message.content).toBe('You said: ');
    expect(stopped.choices[0]!.finish_reason).toBe('stop');
    const cut = await client.chat.completions.create({ model: 'chat-v2', messages, max_tokens: 2 });
    expect(cut.choices[0]!.finish_reason).toBe('length');
    expect(cut.usage!.completion_tokens).toBeLessThanOrEqual(2);
    expect(cut.choices[0]!.message.content).toBe('You ');
  });

  it('sends what it cannot do to the next engine and says why: tools, logprobs, seed, temperature 0', async () => {
    const { ai, local } = setup();
    const tool = { type: 'function', function: { name: 'f', parameters: { type: 'object' } } };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ tools: [tool] }, /builtin: .*cannot call tools/],
      [{ logprobs: true }, /no log-probabilities/],
      [{ seed: 1 }, /no seed/],
      [{ temperature: 0 }, /greedily/],
    ];
    for (const [extra, why] of cases) {
      const res = await ai.fetch(`${BASE}/chat/completions`, postJson({ model: 'chat-v2', messages, ...extra }));
      expect(res.status).toBe(200);
      expect(res.headers.get('x-vaani-engine')).toBe('local');
      expect(res.headers.get('x-vaani-fallback')).toMatch(why);
      expect((await res.json()).choices[0].message.content).toBe('local answer');
    }
    expect(local.seen).toHaveLength(4);
    expect(standIn().calls.filter((call) => call.method === 'promptStreaming')).toHaveLength(0);
  });

  it('with only the browser to ask, what it cannot do is a 400 naming the field', async () => {
    installPromptApi();
    const ai = service({ routing: { prefer: ['builtin'] } });
    const res = await ai.fetch(`${BASE}/chat/completions`, postJson({ model: 'chat-v2', messages, logprobs: true }));
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: 'unsupported_parameter', param: 'logprobs' });
  });

  it('falls back when the model is unavailable, over its context window, or fails before its first words', async () => {
    for (const [state, why] of [
      [{ availability: 'unavailable' }, /unavailable on this device/],
      [{ contextWindow: 5 }, /too large for the context window/],
      [{ failAfterChunks: 0 }, /crashed/],
    ] as const) {
      const { ai } = setup();
      Object.assign(standIn(), state);
      const res = await ai.fetch(`${BASE}/chat/completions`, postJson({ model: 'chat-v2', messages }));
      expect(res.headers.get('x-vaani-engine')).toBe('local');
      expect(res.headers.get('x-vaani-fallback')).toMatch(why);
      ai.dispose();
    }
  });

  it('a failure mid-stream ends that stream with an error event; the next request works', async () => {
    const { client } = setup();
    standIn().failAfterChunks = 2;
    const stream = await client.chat.completions.create({ model: 'chat-v2', messages, stream: true });
    let text = '';
    await expect(
      (async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      })(),
    ).rejects.toThrow(/crashed/);
    expect(text).toBe('You said: ');
    standIn().failAfterChunks = -1;
    const next = await client.chat.completions.create({ model: 'chat-v2', messages });
    expect(next.choices[0]!.message.content).toBe('You said: namaste duniya');
  });

  it("an abort reaches the browser's model", async () => {
    const { client } = setup();
    const controller = new AbortController();
    const stream = await client.chat.completions.create(
      { model: 'chat-v2', messages, stream: true },
      { signal: controller.signal },
    );
    for await (const chunk of stream) if (chunk.choices[0]?.delta.content) break;
    controller.abort();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const prompt = standIn().calls.find((call) => call.method === 'promptStreaming')!;
    expect((prompt.options.signal as AbortSignal).aborted).toBe(true);
  });

  it('builtin-chat without a built-in model: 503 with the reason; /v1/models says absent', async () => {
    const ai = service();
    const res = await ai.fetch(`${BASE}/chat/completions`, postJson({ model: 'builtin-chat', messages }));
    expect(res.status).toBe(503);
    expect((await res.json()).error.message).toMatch(/builtin: the browser offers no built-in model/);
    const model = await (await ai.fetch(`${BASE}/models/builtin-chat`, { headers: AUTH })).json();
    expect(model).toMatchObject({
      builtin: 'LanguageModel',
      runs_on: { builtin: 'absent' },
      routing: { prefer: ['builtin'] },
    });
    expect(await ai.builtin.availability()).toBe('absent');
  });

  it('ai.builtin downloads a downloadable model with progress, then it answers', async () => {
    installPromptApi({ availability: 'downloadable' });
    const ai = service();
    expect(await ai.builtin.availability()).toBe('downloadable');
    const progress: number[] = [];
    await ai.builtin.download({ onProgress: (fraction) => progress.push(fraction) });
    expect(progress).toEqual([0, 0.5, 1]);
    expect(await ai.builtin.availability()).toBe('available');
    const res = await ai.fetch(`${BASE}/chat/completions`, postJson({ model: 'builtin-chat', messages }));
    expect(res.headers.get('x-vaani-engine')).toBe('builtin');
  });

  it('GET /v1/models asks the Prompt API once a settled answer is known, and again after a download', async () => {
    installPromptApi({ availability: 'downloadable' });
    const ai = service();
    const list = async () => {
      const { data } = await (await ai.fetch(`${BASE}/models`, { headers: AUTH })).json();
      return data.find((m: { id: string }) => m.id === 'builtin-chat').runs_on.builtin;
    };
    const asked = () => standIn().calls.filter((call) => call.method === 'availability').length;
    expect([await list(), await list(), asked()]).toEqual(['downloadable', 'downloadable', 2]);
    await ai.builtin.download();
    const before = asked();
    expect([await list(), await list(), await list()]).toEqual(['available', 'available', 'available']);
    expect(asked() - before).toBe(1);
    standIn().availability = 'unavailable';
    expect(await ai.builtin.availability()).toBe('unavailable');
    expect(await list()).toBe('unavailable');
  });

  it('every answer names its engine: local for the page itself, remote when forwarded', async () => {
    remote = await startRemote();
    const ai = service({ remote: { baseURL: remote.url }, routing: 'remote-only' });
    const forwarded = await ai.fetch(`${BASE}/chat/completions`, postJson({ model: 'chat-v2', messages }));
    expect(forwarded.headers.get('x-vaani-engine')).toBe('remote');
    expect((await ai.fetch(`${BASE}/models`, { headers: AUTH })).headers.get('x-vaani-engine')).toBe('local');
    const bad = await ai.fetch(`${BASE}/chat/completions`, postJson({ model: 'chat-v2', messages: 3 }));
    expect([bad.status, bad.headers.get('x-vaani-engine')]).toEqual([400, 'local']);
  });

  it('createVaani refuses a routing it cannot follow with a TypeError', () => {
    for (const routing of [{ prefer: [] }, { prefer: ['gpu'] }, { prefer: ['local', 'local'] }, 'fastest'])
      expect(() => service({ routing } as never)).toThrow(TypeError);
    expect(() => service({ routing: { 'chat-v2': { prefer: ['nowhere'] } } } as never)).toThrow(/routing\['chat-v2'\]/);
  });
});
