import { expect, test } from '@playwright/test';
import { ensureDecoderFixture } from '../fixtures/llm/fixture-dir';
import { tinyLlamaGqa } from '../fixtures/llm/spec';
import type { ModelSource } from '../../src/protocol/options';
import { openHarness } from './support/page';
import type { ReferenceRequest } from './pages/chat-reference';

const UPSTREAM = '/shared/fixtures/tiny-random-llama-fp16-genai/';
/** Decode steps per answer: the first from the prefill, the next from the cache (the reference recomputes each). */
const STEPS = 2;
const WORDS = (
  'river mountain village रात्रि train monsoon market festival दिल्ली school bridge ocean forest kitchen ' +
  'letter garden temple harvest lantern blue quickly seven thirty music'
).split(' ');
const words = (count: number, turn: number) =>
  Array.from({ length: count }, (_, i) => WORDS[(i * 7 + turn) % WORDS.length]).join(' ');

interface Case {
  name: string;
  source: () => Promise<{ model: ModelSource; reference: Omit<ReferenceRequest, 'messages' | 'steps'> }>;
  /** Words in each user turn, sized so the prompts pass 512, 1,024 and then 2,048 tokens or come close to it. */
  turns: number[];
  /** The prompt of the last turn has more tokens than this. */
  last: number;
}

const fixture = async (name: string, options: typeof tinyLlamaGqa) => {
  const location = await ensureDecoderFixture(name, { ...options, dtypes: ['fp32'] });
  return {
    model: { baseURL: location.url },
    reference: {
      base: location.url,
      graph: 'onnx/model.onnx',
      externalData: location.files.filter((file) => file.startsWith('onnx/model.onnx_data')),
      stopIds: [location.specialTokens.imEnd, location.specialTokens.endOfText],
    },
  };
};

const cases: Case[] = [
  {
    name: 'the upstream export (MultiHeadAttention, context 2,048): whole prompts',
    source: async () => ({
      model: { baseURL: UPSTREAM },
      reference: { base: UPSTREAM, graph: 'model.onnx', externalData: ['model.onnx.data'], stopIds: [2] },
    }),
    turns: [360, 300, 500],
    last: 1950,
  },
  {
    name: 'a GroupQueryAttention fixture (context 4,096): prompts in chunks',
    source: () => fixture('tiny-llama-gqa', tinyLlamaGqa),
    turns: [125, 100, 215],
    last: 2048,
  },
];

for (const { name, source, turns, last } of cases) {
  test(`a conversation past 512, 1,024 and ${last === 2048 ? 'past' : 'close to'} 2,048 tokens on ${name}, through the openai SDK, equals a cache-free onnxruntime loop`, async ({
    page,
  }) => {
    test.setTimeout(600_000);
    const { model, reference } = await source();
    const errors = await openHarness(page, '/test/browser/pages/chat.html');
    const results = await page.evaluate(
      async ({ model, reference, texts, steps }) => {
        const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': model } });
        const client = new window.OpenAI({
          baseURL: ai.baseURL,
          apiKey: 'k',
          fetch: ai.fetch,
          dangerouslyAllowBrowser: true,
          maxRetries: 0,
        });
        const messages: { role: string; content: string }[] = [];
        const results = [];
        for (const [turn, text] of texts.entries()) {
          messages.push({ role: 'user', content: `Turn ${turn + 1}: ${text}` });
          const answer = await client.chat.completions
            .create({ model: 'chat-v2', messages: messages as never, temperature: 0, max_tokens: steps })
            .catch((error: Error) => ({ error: error.message }));
          const expected = await window.chatReference.greedyWithoutCache({ ...reference, messages, steps });
          results.push({ answer, expected });
          if ('error' in answer) break;
          messages.push({ role: 'assistant', content: answer.choices[0]!.message.content ?? '' });
        }
        ai.dispose();
        return results;
      },
      { model, reference, texts: turns.map((count, turn) => words(count, turn)), steps: STEPS },
    );
    expect(errors).toEqual([]);
    for (const [turn, { answer }] of results.entries()) expect(answer, `turn ${turn + 1}`).not.toHaveProperty('error');
    expect(results.length).toBe(turns.length);
    for (const { answer, expected } of results) {
      if ('error' in answer) continue;
      expect(expected.generated.length).toBeGreaterThan(0);
      expect(answer.choices[0]!.message.content).toBe(expected.text);
      expect(answer.usage).toEqual({
        prompt_tokens: expected.promptTokens,
        completion_tokens: expected.generated.length,
        total_tokens: expected.promptTokens + expected.generated.length,
      });
    }
    const prompts = results.map(({ expected }) => expected.promptTokens);
    expect(prompts[0]).toBeGreaterThan(512);
    expect(prompts[1]).toBeGreaterThan(1024);
    expect(prompts[2]).toBeGreaterThan(last);
  });
}

test('auto passes a software WebGPU adapter by for WASM and /v1/models says so; on backend webgpu GroupQueryAttention takes the chunks too, and with graph capture replays its steps: the same greedy answer as WASM to a prompt of two chunks', async ({
  page,
}) => {
  test.setTimeout(600_000);
  const { model } = await fixture('tiny-llama-gqa', tinyLlamaGqa);
  await openHarness(page, '/test/browser/pages/chat.html');
  const result = await page.evaluate(
    async ({ model, text, steps }) => {
      const adapter = await navigator.gpu?.requestAdapter();
      const answer = async (backend: 'auto' | 'webgpu' | 'wasm', ask = true, graphCapture?: number) => {
        const ai = window.Vaani.createVaani({ backend, models: { 'chat-v2': { ...model, chat: { graphCapture } } } });
        const described = async () =>
          (await ai.fetch('/v1/models/chat-v2', { headers: { authorization: 'Bearer k' } })).json();
        const runsOn = async (): Promise<string[]> => (await described()).runs_on.local;
        const before = await runsOn();
        if (!ask) {
          ai.dispose();
          return { before };
        }
        const response = await ai.fetch('/v1/chat/completions', {
          method: 'POST',
          headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
          body: JSON.stringify({
            model: 'chat-v2',
            messages: [{ role: 'user', content: text }],
            temperature: 0,
            max_tokens: steps,
          }),
        });
        const json = await response.json();
        const after = await runsOn();
        const context = (await described()).context_window;
        ai.dispose();
        return {
          status: response.status,
          backend: response.headers.get('x-vaani-backend'),
          json,
          before,
          after,
          context,
        };
      };
      return {
        adapter: adapter ? (adapter.info.isFallbackAdapter ? 'software' : 'hardware') : 'none',
        // Where the adapter is hardware, auto runs the model on it: that answer is the WebGPU one.
        auto: await answer('auto', adapter !== null && adapter !== undefined && !adapter.info.isFallbackAdapter),
        gpu: adapter?.info.isFallbackAdapter ? await answer('webgpu') : undefined,
        // A cache of 1,024 tokens: the model's context becomes that, which says the decoder is the captured one.
        captured: adapter ? await answer('webgpu', true, 1024) : undefined,
        cpu: await answer('wasm'),
      };
    },
    { model, text: words(130, 0), steps: 8 },
  );
  test.skip(result.adapter === 'none', 'no WebGPU adapter in this browser');
  const gpu = (result.adapter === 'software' ? result.gpu : result.auto)!;
  expect(result.auto.before).toEqual(result.adapter === 'software' ? ['wasm'] : ['webgpu', 'wasm']);
  expect(gpu.status).toBe(200);
  expect(gpu.backend).toBe('webgpu');
  expect(gpu.after).toEqual(['webgpu']);
  // Past one prefill chunk (512 tokens): the second chunk runs with a past.
  expect(result.cpu.json.usage.prompt_tokens).toBeGreaterThan(512);
  expect(gpu.json.choices[0].message.content).toBe(result.cpu.json.choices[0].message.content);
  expect(gpu.json.usage).toEqual(result.cpu.json.usage);
  expect(gpu.context).toBe(4096);
  // Graph capture: the prompt through the uncaptured session in two chunks into the fixed cache, then replayed steps.
  const captured = result.captured!;
  expect(captured.status).toBe(200);
  expect(captured.backend).toBe('webgpu');
  expect(captured.context).toBe(1024);
  expect(captured.json.choices[0].message.content).toBe(result.cpu.json.choices[0].message.content);
  expect(captured.json.usage).toEqual(result.cpu.json.usage);
});
