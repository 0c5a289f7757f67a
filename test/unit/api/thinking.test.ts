import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { generateEngine, qwen3Scripted } from '../models/llm/qwen3-scripted';
import { qwen3Tokenizer } from '../text/support';
import { BASE, postJson, service } from './helpers';

const THOUGHT = '<think>\nThe user says hello in Hindi.\n</think>\n\n';
const ANSWER = 'नमस्ते! आप कैसे हैं?';

/** The routes over generate() with Qwen3's tokenizer and template, the model scripted to think then answer. */
function qwen3Service() {
  const { model, prompts, tokenizer } = qwen3Scripted(qwen3Tokenizer().encode(THOUGHT + ANSWER));
  const { factory, seen } = generateEngine(model);
  const ai = service({}, [factory]);
  const prompt = (i: number) => tokenizer.decode(prompts[i]!);
  return { ai, seen, prompt, openai: new OpenAI({ baseURL: BASE, apiKey: 'k', fetch: ai.fetch }) };
}

const messages = [{ role: 'user' as const, content: 'नमस्ते' }];

describe('thinking on /chat/completions (Qwen3 template, generate())', () => {
  it('reasoning_effort turns thinking on: message.reasoning_content, never in content; reasoning tokens in usage', async () => {
    const { openai, prompt } = qwen3Service();
    const answer = await openai.chat.completions.create({
      model: 'chat-v2',
      messages,
      temperature: 0,
      reasoning_effort: 'high',
    });
    const message = answer.choices[0]!.message as (typeof answer.choices)[0]['message'] & {
      reasoning_content?: string;
    };
    expect(message.content).toBe(ANSWER);
    expect(message.reasoning_content).toBe('The user says hello in Hindi.');
    expect(answer.usage!.completion_tokens_details).toEqual({
      reasoning_tokens: qwen3Tokenizer().encode(THOUGHT.trimEnd()).length,
    });
    expect(prompt(0)).toMatch(/\nassistant\n$/);
  });

  it('streams delta.reasoning_content first, then delta.content', async () => {
    const { openai } = qwen3Service();
    const stream = await openai.chat.completions.create({
      model: 'chat-v2',
      messages,
      temperature: 0,
      stream: true,
      // vLLM's switch
      chat_template_kwargs: { enable_thinking: true },
    } as OpenAI.ChatCompletionCreateParamsStreaming);
    const deltas = [];
    for await (const chunk of stream) deltas.push(chunk.choices[0]?.delta ?? {});
    const reasoning = deltas.map((d) => (d as { reasoning_content?: string }).reasoning_content ?? '');
    const content = deltas.map((d) => d.content ?? '');
    expect(reasoning.join('')).toBe('The user says hello in Hindi.');
    expect(content.join('')).toBe(ANSWER);
    const firstContent = content.findIndex(Boolean);
    expect(reasoning.slice(firstContent).join('')).toBe('');
    expect(reasoning.filter(Boolean).length).toBeGreaterThan(1);
  });

  it('off by default, with reasoning_effort none or minimal, and with enable_thinking false', async () => {
    const { ai, seen, prompt } = qwen3Service();
    const ask = (extra: Record<string, unknown>) =>
      ai.fetch(`${BASE}/chat/completions`, postJson({ model: 'chat-v2', messages, max_tokens: 2, ...extra }));
    for (const extra of [{}, { reasoning_effort: 'none' }, { reasoning_effort: 'minimal' }, { enable_thinking: false }])
      expect((await ask(extra)).status).toBe(200);
    expect(seen.map((params) => params.thinking)).toEqual([false, false, false, false]);
    expect(prompt(0)).toMatch(/<think>\n\n<\/think>\n\n$/);
    for (const extra of [
      { reasoning_effort: 'low' },
      { enable_thinking: true },
      { chat_template_kwargs: { enable_thinking: true } },
    ])
      expect((await ask(extra)).status).toBe(200);
    expect(seen.slice(4).map((params) => params.thinking)).toEqual([true, true, true]);
  });

  it('400s: switches that disagree name the field; an unknown effort; a non-boolean enable_thinking', async () => {
    const { ai } = qwen3Service();
    const error = async (extra: Record<string, unknown>) => {
      const res = await ai.fetch(`${BASE}/chat/completions`, postJson({ model: 'chat-v2', messages, ...extra }));
      return { status: res.status, ...((await res.json()) as { error: { param: string; message: string } }).error };
    };
    const conflict = await error({ reasoning_effort: 'high', chat_template_kwargs: { enable_thinking: false } });
    expect(conflict).toMatchObject({ status: 400, param: 'reasoning_effort' });
    expect(conflict.message).toContain('chat_template_kwargs.enable_thinking turns thinking off');
    expect(await error({ reasoning_effort: 'extreme' })).toMatchObject({ status: 400, param: 'reasoning_effort' });
    expect(await error({ chat_template_kwargs: { enable_thinking: 'yes' } })).toMatchObject({
      status: 400,
      param: 'chat_template_kwargs.enable_thinking',
    });
  });
});

describe('thinking on /responses', () => {
  it('reasoning.effort: a reasoning item before the message; output_text is the answer only', async () => {
    const { openai } = qwen3Service();
    const response = await openai.responses.create({
      model: 'chat-v2',
      input: 'नमस्ते',
      temperature: 0,
      reasoning: { effort: 'medium' },
    });
    expect(response.output).toMatchObject([
      { type: 'reasoning', summary: [], content: [{ type: 'reasoning_text', text: 'The user says hello in Hindi.' }] },
      { type: 'message', content: [{ type: 'output_text', text: ANSWER }] },
    ]);
    expect(response.output[0]!.id).toMatch(/^rs_/);
    expect(response.output_text).toBe(ANSWER);
    expect(response.reasoning).toEqual({ effort: 'medium', summary: null });
    expect(response.usage!.output_tokens_details.reasoning_tokens).toBe(
      qwen3Tokenizer().encode(THOUGHT.trimEnd()).length,
    );
    // The output, reasoning item included, can go back as input.
    const next = await openai.responses.create({
      model: 'chat-v2',
      input: [{ role: 'user', content: 'नमस्ते' }, ...response.output, { role: 'user', content: 'फिर से' }],
    } as OpenAI.Responses.ResponseCreateParamsNonStreaming);
    expect(next.status).toBe('completed');
  });

  it('streams response.reasoning_text.delta events, then the message', async () => {
    const { openai } = qwen3Service();
    const stream = await openai.responses.create({
      model: 'chat-v2',
      input: 'नमस्ते',
      temperature: 0,
      reasoning: { effort: 'low' },
      stream: true,
    });
    const events = [];
    for await (const event of stream) events.push(event);
    const types = events.map((event) => event.type);
    const reasoning = events.flatMap((event) => (event.type === 'response.reasoning_text.delta' ? [event.delta] : []));
    expect(reasoning.join('')).toBe('The user says hello in Hindi.');
    expect(types.indexOf('response.reasoning_text.done')).toBeLessThan(types.indexOf('response.output_text.delta'));
    const text = events.flatMap((event) => (event.type === 'response.output_text.delta' ? [event.delta] : []));
    expect(text.join('')).toBe(ANSWER);
  });
});
