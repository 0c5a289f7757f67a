import { expect, test } from '@playwright/test';
import { openHarness } from './support/page';
import type { ReferenceRequest } from './pages/chat-reference';

const UPSTREAM = '/shared/fixtures/tiny-random-llama-fp16-genai/';
const MESSAGES = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Name three rivers of India: गंगा, யமுனை?' },
];

declare global {
  interface Window {
    chatReference: {
      greedyWithoutCache(
        request: ReferenceRequest,
      ): Promise<{ promptTokens: number; generated: number[]; text: string }>;
    };
  }
}

test.describe('the upstream export (tiny-random-llama-fp16-genai) as it is', () => {
  test('loads, generates greedily through the openai SDK and agrees with a cache-free onnxruntime loop', async ({
    page,
  }) => {
    const errors = await openHarness(page, '/test/browser/pages/chat.html');
    const result = await page.evaluate(
      async ({ base, messages }) => {
        const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
        const client = new window.OpenAI({
          baseURL: ai.baseURL,
          apiKey: 'k',
          fetch: ai.fetch,
          dangerouslyAllowBrowser: true,
          maxRetries: 0,
        });
        const { data, response } = await client.chat.completions
          .create({ model: 'chat-v2', messages: messages as never, temperature: 0, max_tokens: 24 })
          .withResponse();
        const reference = await window.chatReference.greedyWithoutCache({
          base,
          graph: 'model.onnx',
          externalData: ['model.onnx.data'],
          messages,
          steps: 24,
          stopIds: [2],
        });
        const models = await (await ai.fetch('/v1/models/chat-v2', { headers: { authorization: 'Bearer k' } })).json();
        ai.dispose();
        return { data, backend: response.headers.get('x-vaani-backend'), reference, models };
      },
      { base: UPSTREAM, messages: MESSAGES },
    );
    expect(errors).toEqual([]);
    expect(result.backend).toBe('wasm');
    expect(result.models.runs_on.local).toEqual(['wasm']);
    // The engine's real context (genai_config context_length), the catalogue's figure kept beside it.
    expect(result.models.context_window).toBe(2048);
    expect(result.models.context_window_remote).toBe(65536);
    expect(result.reference.generated.length).toBeGreaterThan(0);
    const choice = result.data.choices[0]!;
    expect(choice.message.content).toBe(result.reference.text);
    expect(result.data.usage).toEqual({
      prompt_tokens: result.reference.promptTokens,
      completion_tokens: result.reference.generated.length,
      total_tokens: result.reference.promptTokens + result.reference.generated.length,
    });
    expect(choice.finish_reason).toBe(result.reference.generated.length === 24 ? 'length' : 'stop');
  });
});

test('on WebGPU the fp16 upstream export runs where the adapter has shader-f16; auto runs WASM otherwise and on a software adapter', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await openHarness(page, '/test/browser/pages/chat.html');
  const result = await page.evaluate(
    async ({ base, messages }) => {
      const answer = async (backend: 'auto' | 'webgpu' | 'wasm') => {
        const ai = window.Vaani.createVaani({ backend, models: { 'chat-v2': { baseURL: base } } });
        const response = await ai.fetch('/v1/chat/completions', {
          method: 'POST',
          headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'chat-v2', messages, temperature: 0, max_tokens: 8 }),
        });
        const json = await response.json();
        ai.dispose();
        return { status: response.status, backend: response.headers.get('x-vaani-backend'), json };
      };
      const adapter = await navigator.gpu.requestAdapter();
      return {
        f16: adapter?.features.has('shader-f16') ?? false,
        software: adapter?.info.isFallbackAdapter ?? false,
        auto: await answer('auto'),
        gpu: await answer('webgpu'),
        cpu: await answer('wasm'),
      };
    },
    { base: UPSTREAM, messages: MESSAGES },
  );
  expect(result.cpu.status).toBe(200);
  expect(result.auto.backend).toBe(result.f16 && !result.software ? 'webgpu' : 'wasm');
  expect(result.auto.json.choices[0].message.content).toBe(result.cpu.json.choices[0].message.content);
  if (result.f16) {
    expect(result.gpu.json.choices[0].message.content).toBe(result.cpu.json.choices[0].message.content);
  } else {
    expect(result.gpu.status).toBe(503);
    expect(result.gpu.json.error.message).toContain('shader-f16');
  }
});
