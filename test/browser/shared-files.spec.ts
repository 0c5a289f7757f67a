import { expect, test } from '@playwright/test';
import { ensureDecoderFixture, type FixtureLocation } from '../fixtures/llm/fixture-dir';
import { tinyQwen2 } from '../fixtures/llm/spec';
import { openHarness } from './support/page';

const PAGE = '/test/browser/pages/chat.html';

let chat: FixtureLocation;

test.beforeAll(async () => {
  chat = await ensureDecoderFixture('tiny-qwen2-plain', { ...tinyQwen2, dtypes: ['fp32'] });
});

// Shared engines (the default) meet by job key; engines of this tab only (`share: false`) by chatEngines' pool.
for (const share of [true, false])
  test(`agent-v1 with only chat-v2's baseURL configured answers from chat-v2's files: fetched once, cached once, one engine (share: ${share})`, async ({
    page,
  }) => {
    const fetched: string[] = [];
    const hub: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes(chat.url)) fetched.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    await page.route('https://huggingface.co/**', (route) => (hub.push(route.request().url()), route.abort()));
    const errors = await openHarness(page, PAGE);
    const ask = (model: string) =>
      page.evaluate(
        async ({ base, model, share }) => {
          const w = window as unknown as { ai?: ReturnType<typeof window.Vaani.createVaani> };
          w.ai ??= window.Vaani.createVaani({ backend: 'wasm', share, models: { 'chat-v2': { baseURL: base } } });
          const client = new window.OpenAI({
            baseURL: w.ai.baseURL,
            apiKey: 'k',
            fetch: w.ai.fetch,
            dangerouslyAllowBrowser: true,
          });
          const response = await client.responses.create({
            model,
            input: 'नमस्ते, आप कैसे हैं?',
            max_output_tokens: 8,
            temperature: 0,
          });
          return response.output_text;
        },
        { base: chat.url, model, share },
      );
    const byChat = await ask('chat-v2');
    const graphs = () => fetched.filter((request) => /^GET .*\.onnx(_data)?$/.test(request));
    const afterChat = graphs().length;
    expect(afterChat).toBeGreaterThan(0);
    const byAgent = await ask('agent-v1');
    const afterAgent = graphs().length;
    const chatWorkers = page.workers().filter((worker) => worker.url().includes('chat.worker')).length;
    const state = await page.evaluate(async () => {
      const { ai } = window as unknown as { ai: ReturnType<typeof window.Vaani.createVaani> };
      const loaded = (await ai.models.load('agent-v1')).state;
      const result = {
        loaded,
        cached: (await ai.models.cached()).map((model) => model.id),
        agent: (await ai.models.status('agent-v1')).state,
        deleted: await ai.models.delete('agent-v1'),
        chat: (await ai.models.status('chat-v2')).state,
      };
      ai.dispose();
      return result;
    });
    expect(errors).toEqual([]);
    expect(hub).toEqual([]);
    expect(byAgent).toBe(byChat);
    expect(byAgent.length).toBeGreaterThan(0);
    expect(afterAgent).toBe(afterChat);
    // One cache entry: loading agent-v1 finds chat-v2's files; deleting it deletes them.
    expect(state).toEqual({ loaded: 'cached', cached: ['chat-v2'], agent: 'cached', deleted: true, chat: 'absent' });
    expect(chatWorkers).toBe(1);
  });
