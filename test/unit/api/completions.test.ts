import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { scriptedChat } from '../../support/chat-engine';
import { BASE, postJson, service } from './helpers';

describe('POST /completions', () => {
  it('answers a text_completion with the raw prompt and defaults (max_tokens 16 as OpenAI, temperature 0.7 as the spec)', async () => {
    const { factory, seen } = scriptedChat(['Ya', 'muna']);
    const res = await service({}, [factory]).fetch(
      `${BASE}/completions`,
      postJson({ model: 'chat-v2', prompt: 'Ganga, ' }),
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      object: 'text_completion',
      model: 'chat-v2',
      choices: [{ text: 'Yamuna', index: 0, logprobs: null, finish_reason: 'stop' }],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
    expect(body.id).toMatch(/^cmpl-/);
    expect(seen[0]).toMatchObject({ prompt: 'Ganga, ', messages: [], max_tokens: 16, temperature: 0.7 });
  });

  it('streams text chunks, a final chunk with the finish reason, usage when asked, then [DONE]; echo comes first', async () => {
    const { factory } = scriptedChat(['a', 'b']);
    const res = await service({}, [factory]).fetch(
      `${BASE}/completions`,
      postJson({
        model: 'chat-v2',
        prompt: ['P: '],
        stream: true,
        echo: true,
        stream_options: { include_usage: true },
      }),
    );
    const events = (await res.text()).split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event.slice(6)));
    expect(chunks.map((c) => c.choices[0]?.text)).toEqual(['P: ', 'a', 'b', '', undefined]);
    expect(chunks[3].choices[0].finish_reason).toBe('stop');
    expect(chunks[4].usage).toEqual({ prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 });
  });

  it('400s: several prompts, token prompts, n > 1; 400 model_not_supported for a voice model; a suffix goes to the engine', async () => {
    const { factory } = scriptedChat(['x']);
    const ai = service({}, [factory]);
    const error = async (body: object) => {
      const res = await ai.fetch(`${BASE}/completions`, postJson({ model: 'chat-v2', prompt: 'x', ...body }));
      return { status: res.status, ...(await res.json()).error };
    };
    expect(await error({ prompt: ['a', 'b'] })).toMatchObject({ status: 400, param: 'prompt' });
    expect(await error({ prompt: [1, 2] })).toMatchObject({ status: 400, param: 'prompt' });
    expect(await error({ n: 2 })).toMatchObject({ status: 400, param: 'n' });
    expect(await error({ model: 'speech-tts-v1' })).toMatchObject({ status: 400, code: 'model_not_supported' });
  });

  it('passes a suffix on as fill-in-the-middle (the engine answers 400 when its tokenizer has no FIM tokens)', async () => {
    const { factory, seen } = scriptedChat(['x']);
    const res = await service({}, [factory]).fetch(
      `${BASE}/completions`,
      postJson({ model: 'chat-v2', prompt: 'def f(', suffix: '\n' }),
    );
    expect(res.status).toBe(200);
    expect(seen[0]).toMatchObject({ prompt: 'def f(', suffix: '\n' });
  });

  it("logprobs: OpenAI's legacy lists (tokens, token_logprobs, top_logprobs, text_offset), whole and streamed, through the SDK", async () => {
    const lp = (token: string, logprob: number) => ({
      token,
      logprob,
      bytes: [...new TextEncoder().encode(token)],
      top_logprobs: [
        { token, logprob, bytes: [] },
        { token: '?', logprob: logprob - 1, bytes: [] },
      ],
    });
    const pieces = [
      { content: 'Ya', logprobs: [lp('Ya', -0.5)] },
      { content: 'muna', logprobs: [lp('mu', -0.25), lp('na', -0.125)] },
    ];
    const { factory, seen } = scriptedChat(pieces);
    const client = new OpenAI({ baseURL: BASE, apiKey: 'k', fetch: service({}, [factory]).fetch });
    const whole = await client.completions.create({ model: 'chat-v2', prompt: 'Ganga, ', logprobs: 2, echo: true });
    expect(seen[0]).toMatchObject({ logprobs: true, top_logprobs: 2 });
    expect(whole.choices[0]!.text).toBe('Ganga, Yamuna');
    expect(whole.choices[0]!.logprobs).toEqual({
      tokens: ['Ya', 'mu', 'na'],
      token_logprobs: [-0.5, -0.25, -0.125],
      top_logprobs: [
        { Ya: -0.5, '?': -1.5 },
        { mu: -0.25, '?': -1.25 },
        { na: -0.125, '?': -1.125 },
      ],
      text_offset: [7, 9, 11],
    });
    const stream = await client.completions.create({ model: 'chat-v2', prompt: 'Ganga, ', logprobs: 0, stream: true });
    const offsets: number[][] = [];
    for await (const chunk of stream) if (chunk.choices[0]?.text) offsets.push(chunk.choices[0].logprobs!.text_offset!);
    expect(offsets).toEqual([[0], [2, 4]]);
  });
});
