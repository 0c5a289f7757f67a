import { describe, expect, it } from 'vitest';
import type { TokenLogprob } from '../../../src/protocol/chat';
import { scriptedChat } from '../../support/chat-engine';
import { BASE, postJson, service } from './helpers';

const lp = (token: string, logprob: number): TokenLogprob => ({
  token,
  logprob,
  bytes: Array.from(new TextEncoder().encode(token)),
  top_logprobs: [],
});
const request = { model: 'chat-v2', messages: [{ role: 'user', content: 'hi' }] };

describe('chat fields', () => {
  it('the developer role is a system message; logprobs, top_logprobs and logit_bias reach the engine', async () => {
    const { factory, seen } = scriptedChat(['a']);
    const res = await service({}, [factory]).fetch(
      `${BASE}/chat/completions`,
      postJson({
        ...request,
        messages: [{ role: 'developer', content: 'terse' }, ...request.messages],
        logprobs: true,
        top_logprobs: 20,
        logit_bias: { '42': -100 },
      }),
    );
    expect(res.status).toBe(200);
    expect(seen[0]).toMatchObject({
      messages: [{ role: 'system', content: 'terse' }, { role: 'user' }],
      logprobs: true,
      top_logprobs: 20,
      logit_bias: { '42': -100 },
    });
  });

  it("logprobs in OpenAI's shape: gathered whole, per chunk when streamed, null when not asked", async () => {
    const deltas = [
      { content: 'नम', logprobs: [lp('न', -0.5), lp('म', -0.25)] },
      { content: 'स्ते', logprobs: [lp('स्ते', -1)] },
    ];
    const { factory } = scriptedChat(deltas);
    const ai = service({}, [factory]);
    const whole = await (await ai.fetch(`${BASE}/chat/completions`, postJson({ ...request, logprobs: true }))).json();
    expect(whole.choices[0].logprobs).toEqual({
      content: [...deltas[0]!.logprobs, ...deltas[1]!.logprobs],
      refusal: null,
    });
    expect(whole.choices[0].message).toEqual({ role: 'assistant', content: 'नमस्ते', refusal: null });
    const text = await (
      await ai.fetch(`${BASE}/chat/completions`, postJson({ ...request, logprobs: true, stream: true }))
    ).text();
    const chunks = text
      .split('\n\n')
      .filter((event) => event.startsWith('data: {'))
      .map((event) => JSON.parse(event.slice(6)));
    expect(chunks[1].choices[0]).toEqual({
      index: 0,
      delta: { content: 'नम' },
      logprobs: { content: deltas[0]!.logprobs, refusal: null },
      finish_reason: null,
    });
    expect(chunks[0].choices[0].logprobs).toBeNull();
  });

  it('400s: a non-text content part names its type; top_logprobs over 20; a logit_bias beyond ±100', async () => {
    const { factory } = scriptedChat(['a']);
    const ai = service({}, [factory]);
    const error = async (body: object) => {
      const res = await ai.fetch(`${BASE}/chat/completions`, postJson({ ...request, ...body }));
      return { status: res.status, ...(await res.json()).error };
    };
    const image = await error({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'see' },
            { type: 'input_audio', input_audio: {} },
          ],
        },
      ],
    });
    expect(image).toMatchObject({ status: 400, code: 'unsupported_content', param: 'messages[0].content[1].type' });
    expect(image.message).toContain("'input_audio'");
    expect(await error({ top_logprobs: 21 })).toMatchObject({ status: 400, param: 'top_logprobs' });
    expect(await error({ logit_bias: { '5': 101 } })).toMatchObject({ status: 400 });
    expect(await error({ n: 2 })).toMatchObject({ status: 400, param: 'n' });
  });
});
