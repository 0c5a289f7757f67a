import { describe, expect, it } from 'vitest';
import { scriptedChat } from '../../support/chat-engine';
import { BASE, postJson, service } from './helpers';

describe('POST /completions', () => {
  it('answers a text_completion with the raw prompt and OpenAI defaults (max_tokens 16, temperature 1)', async () => {
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
    expect(seen[0]).toMatchObject({ prompt: 'Ganga, ', messages: [], max_tokens: 16, temperature: 1 });
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
});
