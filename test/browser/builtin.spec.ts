import { expect, test } from '@playwright/test';
import { installPromptApi } from '../support/prompt-api';
import { openHarness } from './support/page';

const UPSTREAM = '/shared/fixtures/tiny-random-llama-fp16-genai/';

// Debian's Chromium has no built-in model: a stand-in of the Prompt API's published IDL plays
// Chrome's, installed before the page's scripts run.
test("the browser's own model answers first; what it cannot do goes to the local engine", async ({ page }) => {
  await page.addInitScript(installPromptApi);
  const errors = await openHarness(page);
  const result = await page.evaluate(async (base) => {
    const ai = window.Vaani.createVaani({
      backend: 'wasm',
      models: { 'chat-v2': { baseURL: base } },
      routing: { 'chat-v2': { prefer: ['builtin', 'local'] } },
    });
    const client = new window.OpenAI({
      baseURL: ai.baseURL,
      apiKey: 'k',
      fetch: ai.fetch,
      dangerouslyAllowBrowser: true,
    });
    const messages = [{ role: 'user' as const, content: 'नमस्ते दुनिया' }];
    const { data: stream, response } = await client.chat.completions
      .create({ model: 'chat-v2', messages, stream: true })
      .withResponse();
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    const tool = { type: 'function' as const, function: { name: 'lookup', parameters: { type: 'object' } } };
    const local = await client.chat.completions
      .create({ model: 'chat-v2', messages, tools: [tool], max_tokens: 4, temperature: 0 })
      .withResponse();
    const model = await client.models.retrieve('builtin-chat');
    return {
      text,
      engine: response.headers.get('x-vaani-engine'),
      local: [local.response.headers.get('x-vaani-engine'), local.response.headers.get('x-vaani-fallback')],
      backend: local.response.headers.get('x-vaani-backend'),
      runsOn: (model as unknown as { runs_on: { builtin: string } }).runs_on.builtin,
      availability: await ai.builtin.availability(),
    };
  }, UPSTREAM);
  expect(result.text).toBe('You said: नमस्ते दुनिया');
  expect(result.engine).toBe('builtin');
  expect(result.local[0]).toBe('local');
  expect(result.local[1]).toMatch(/builtin: .*cannot call tools/);
  expect(result.backend).toBe('wasm');
  expect([result.runsOn, result.availability]).toEqual(['available', 'available']);
  expect(errors).toEqual([]);
});

test("this Chromium's own Prompt API: no model here, so builtin-chat is a clear 503", async ({ page }) => {
  const errors = await openHarness(page);
  const result = await page.evaluate(async () => {
    const ai = window.Vaani.createVaani({ routing: { 'chat-v2': { prefer: ['builtin', 'local'] } } });
    const res = await ai.fetch(`${ai.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'builtin-chat', messages: [{ role: 'user', content: 'hi' }] }),
    });
    return { status: res.status, body: await res.json(), availability: await ai.builtin.availability() };
  });
  expect(result.status).toBe(503);
  expect(result.body.error.code).toBe('model_unavailable');
  // Debian's Chromium exposes LanguageModel with no model behind it ('unavailable'); others lack the API.
  expect(['absent', 'unavailable']).toContain(result.availability);
  expect(result.body.error.message).toMatch(/built-in/);
  expect(errors).toEqual([]);
});
