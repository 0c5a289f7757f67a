import { describe, expect, it } from 'vitest';
import type { ChatDelta } from '../../../../src/protocol/chat';
import { ChatTemplate } from '../../../../src/common/text/chat-template';
import { clusterCuts, qwen3Tokenizer } from '../../text/support';
import { qwen3Scripted, run } from './qwen3-scripted';

const utf8 = new TextEncoder();
const HINDI = 'नमस्ते, आप कैसे हैं? मैं ठीक हूँ।';
const THOUGHT = '<think>\nनमस्ते means hello; answer in Hindi.\n</think>\n\n';
const user = [{ role: 'user' as const, content: 'नमस्ते' }];

const joined = (deltas: ChatDelta[], field: 'content' | 'reasoning_content') =>
  deltas.map((delta) => delta[field] ?? '').join('');
const pieces = (deltas: ChatDelta[]) => deltas.flatMap((delta) => (delta.content ? [delta.content] : []));

describe("generate() on Qwen3's tokenizer and template (scripted logits)", () => {
  it('streams Hindi in whole grapheme clusters, with logprobs whose bytes are the content bytes', async () => {
    const { model, tokenizer } = qwen3Scripted(qwen3Tokenizer().encode(HINDI));
    const { deltas, outcome } = await run(model, { messages: user, logprobs: true, top_logprobs: 2 });
    expect(joined(deltas, 'content')).toBe(HINDI);
    expect(clusterCuts(pieces(deltas))).toEqual([]);
    const logprobs = deltas.flatMap((delta) => delta.logprobs ?? []);
    expect(logprobs).toHaveLength(outcome.usage.completion_tokens);
    expect(logprobs.flatMap((token) => token.bytes)).toEqual(Array.from(utf8.encode(HINDI)));
    expect(logprobs.some((token) => token.token.startsWith('bytes:\\x'))).toBe(true);
    for (const token of logprobs) expect(token.top_logprobs[0]!.bytes).toEqual(token.bytes);
    expect(tokenizer.decode(tokenizer.encode(HINDI))).toBe(HINDI);
  });

  it('renders Qwen3 with thinking off by default, and on when asked', async () => {
    const { model, prompts, tokenizer } = qwen3Scripted(qwen3Tokenizer().encode('ठीक'));
    await run(model, { messages: user });
    await run(model, { messages: user, thinking: true });
    await run(model, {
      messages: user,
      thinking: true,
      template_kwargs: { enable_thinking: false, add_generation_prompt: false },
    });
    const [off, on, kwargs] = prompts.map((ids) => tokenizer.decode(ids));
    // (decoded without the special tokens, so without <|im_start|>)
    expect(off).toMatch(/\nassistant\n<think>\n\n<\/think>\n\n$/);
    expect(on).toMatch(/\nassistant\n$/);
    // The request's own switch wins over template variables of the same name.
    expect(kwargs).toBe(on);
  });

  it("surfaces the model's <think> block as reasoning_content: never in content, not in logprobs, counted", async () => {
    const { model } = qwen3Scripted(qwen3Tokenizer().encode(THOUGHT + HINDI));
    const { deltas, outcome } = await run(model, { messages: user, thinking: true, logprobs: true });
    expect(joined(deltas, 'reasoning_content')).toBe('नमस्ते means hello; answer in Hindi.');
    expect(joined(deltas, 'content')).toBe(HINDI);
    const logprobs = deltas.flatMap((delta) => delta.logprobs ?? []);
    expect(logprobs.flatMap((token) => token.bytes)).toEqual(Array.from(utf8.encode(HINDI)));
    const thoughtTokens = qwen3Tokenizer().encode(THOUGHT.trimEnd()).length;
    expect(outcome.usage.completion_tokens_details).toEqual({ reasoning_tokens: thoughtTokens });
    expect(outcome.usage.completion_tokens).toBe(qwen3Tokenizer().encode(THOUGHT + HINDI).length);
  });

  it('a stop string ends the answer, not the thinking; max_tokens counts both', async () => {
    const { model } = qwen3Scripted(qwen3Tokenizer().encode(THOUGHT + HINDI));
    const stopped = await run(model, { messages: user, thinking: true, stop: ['नमस्ते'] });
    expect(joined(stopped.deltas, 'reasoning_content')).toContain('नमस्ते means');
    expect(joined(stopped.deltas, 'content')).toBe('');
    expect(stopped.outcome.finish_reason).toBe('stop');
    const short = await run(model, { messages: user, thinking: true, max_tokens: 5 });
    expect(short.outcome).toMatchObject({ finish_reason: 'length', usage: { completion_tokens: 5 } });
    expect(joined(short.deltas, 'content')).toBe('');
    expect(joined(short.deltas, 'reasoning_content')).not.toBe('');
  });
});

describe('thinking with constrained decoding (Qwen3 vocabulary, random logits)', () => {
  const person = {
    type: 'object',
    properties: { name: { type: 'string' }, age: { type: 'integer' } },
    required: ['name', 'age'],
    additionalProperties: false,
  };
  const format = { type: 'json_schema' as const, json_schema: { name: 'person', schema: person, strict: true } };

  it('thinks first (free of the grammar), closes the thought when the budget runs low, then writes valid JSON', async () => {
    const { model } = qwen3Scripted(undefined);
    const { deltas, outcome } = await run(model, {
      messages: user,
      thinking: true,
      response_format: format,
      max_tokens: 160,
    });
    const reasoning = joined(deltas, 'reasoning_content');
    expect(reasoning.length).toBeGreaterThan(20);
    const answer = JSON.parse(joined(deltas, 'content')) as Record<string, unknown>;
    expect(Object.keys(answer).sort()).toEqual(['age', 'name']);
    expect(outcome.finish_reason).toBe('stop');
    // Thinking ran until the last quarter (at least 64 tokens) of the budget began.
    expect(outcome.usage.completion_tokens_details!.reasoning_tokens).toBe(160 - 64 + 1);
  });

  it('a template that opens <think> itself (as DeepSeek-R1 distills do) thinks first even when not asked', async () => {
    const alwaysThinks = new ChatTemplate(
      '{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}<|im_start|>assistant\n<think>\n{# a block ends with </think> #}',
    );
    const { model } = qwen3Scripted(undefined, alwaysThinks);
    const { deltas } = await run(model, { messages: user, response_format: format, max_tokens: 160 });
    expect(joined(deltas, 'reasoning_content').length).toBeGreaterThan(20);
    expect(Object.keys(JSON.parse(joined(deltas, 'content')) as object).sort()).toEqual(['age', 'name']);
  });

  it('with thinking off, the grammar holds from the first token and nothing is reasoning', async () => {
    const { model } = qwen3Scripted(undefined);
    const { deltas, outcome } = await run(model, { messages: user, response_format: format, max_tokens: 160 });
    expect(joined(deltas, 'reasoning_content')).toBe('');
    expect(JSON.parse(joined(deltas, 'content'))).toMatchObject({ name: expect.any(String) });
    expect(outcome.usage.completion_tokens_details).toBeUndefined();
  });
});
