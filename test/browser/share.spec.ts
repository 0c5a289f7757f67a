import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { ensureDecoderFixture } from '../fixtures/llm/fixture-dir';
import { tinyLlama } from '../fixtures/llm/spec';
import { openHarness } from './support/page';

/**
 * Engines shared across tabs: pages of one browser context are tabs of one site. The generated tiny
 * Llama answers every chat id the tests name (its 1,024-token tokenizer starts an engine in a
 * fraction of the time of the upstream export's 32,000, and these tests start about 20 engines).
 */
let BASE: string;
test.beforeAll(async () => {
  BASE = (await ensureDecoderFixture('tiny-llama', tinyLlama)).url;
});

/**
 * A tab with a Vaani (`window.ai`) whose chat models all run the fixture, and its chat workers
 * counted: `engines` those started, `running` those not ended since.
 */
async function openTab(context: BrowserContext, share = true, engineBudget?: number) {
  const page = await context.newPage();
  const workers: { url: string; closed: boolean }[] = [];
  page.on('worker', (worker) => {
    const seen = { url: worker.url(), closed: false };
    workers.push(seen);
    worker.on('close', () => (seen.closed = true));
  });
  const errors = await openHarness(page);
  await page.evaluate(
    ({ base, share, engineBudget }) => {
      const models = { 'chat-v2': { baseURL: base }, 'chat-v2-pro': { baseURL: base }, 'code-v1': { baseURL: base } };
      (window as unknown as { ai: unknown }).ai = window.Vaani.createVaani({
        backend: 'wasm',
        models,
        share,
        engineBudget,
      });
    },
    { base: BASE, share, engineBudget },
  );
  const engines = (name: string) => workers.filter((seen) => seen.url.includes(name)).length;
  const running = (name: string) => workers.filter((seen) => seen.url.includes(name) && !seen.closed).length;
  return { page, errors, engines, running };
}

/** One chat answer in the tab; `stream` collects the deltas. `abortAfter` aborts after that many deltas. */
function chat(
  page: Page,
  options: { prompt: string; model?: string; stream?: boolean; abortAfter?: number; max?: number },
) {
  return page.evaluate(async ({ prompt, model = 'chat-v2', stream = false, abortAfter, max = 24 }) => {
    const ai = (window as unknown as { ai: ReturnType<typeof window.Vaani.createVaani> }).ai;
    const client = new window.OpenAI({
      baseURL: ai.baseURL,
      apiKey: 'k',
      fetch: ai.fetch,
      dangerouslyAllowBrowser: true,
    });
    const params = { model, messages: [{ role: 'user' as const, content: prompt }], temperature: 0, max_tokens: max };
    if (!stream) {
      const answer = await client.chat.completions.create(params);
      return { text: answer.choices[0]!.message.content ?? '', deltas: 0, error: '' };
    }
    const controller = new AbortController();
    let text = '';
    let deltas = 0;
    try {
      const chunks = await client.chat.completions.create({ ...params, stream: true }, { signal: controller.signal });
      for await (const chunk of chunks) {
        const delta = chunk.choices[0]?.delta.content;
        if (!delta) continue;
        text += delta;
        if (++deltas === abortAfter) controller.abort();
      }
      return { text, deltas, error: '' };
    } catch (error) {
      return { text, deltas, error: `${(error as Error).name}: ${(error as Error).message}` };
    }
  }, options);
}

test('two tabs share one chat engine: one download, one worker, streams of both at once never mix, an abort stops only its own', async ({
  context,
}) => {
  const downloads: string[] = [];
  context.on('request', (request) => {
    if (request.method() === 'GET' && request.url().includes(`${BASE}onnx/model`))
      downloads.push(new URL(request.url()).pathname);
  });
  const a = await openTab(context);
  const b = await openTab(context);
  // What each prompt answers alone (greedy, so the same every time).
  const alone = {
    a: (await chat(a.page, { prompt: 'नमस्ते' })).text,
    b: (await chat(b.page, { prompt: 'Hello there' })).text,
  };
  expect(alone.a).not.toBe(alone.b);
  expect(await a.page.evaluate(() => (window as unknown as { ai: { shared: boolean } }).ai.shared)).toBe(true);
  expect(a.engines('chat.worker')).toBe(1);
  expect(b.engines('chat.worker')).toBe(0);

  const [streamA, streamB] = await Promise.all([
    chat(a.page, { prompt: 'नमस्ते', stream: true }),
    chat(b.page, { prompt: 'Hello there', stream: true }),
  ]);
  expect(streamA).toMatchObject({ text: alone.a, error: '' });
  expect(streamB).toMatchObject({ text: alone.b, error: '' });

  // B aborts after two deltas; A's stream, running beside it, is whole.
  const [whole, aborted] = await Promise.all([
    chat(a.page, { prompt: 'नमस्ते', stream: true }),
    chat(b.page, { prompt: 'Hello there', stream: true, abortAfter: 2 }),
  ]);
  expect(whole).toMatchObject({ text: alone.a, error: '' });
  // The openai SDK ends a stream its signal aborted without an error.
  expect(aborted).toMatchObject({ deltas: 2, error: '' });
  expect(alone.b.startsWith(aborted.text) && aborted.text.length < alone.b.length).toBe(true);
  // Both tabs carry on, still on the one engine.
  expect((await chat(b.page, { prompt: 'Hello there' })).text).toBe(alone.b);
  expect(a.engines('chat.worker') + b.engines('chat.worker')).toBe(1);
  expect(downloads.sort()).toEqual([`${BASE}onnx/model.onnx`, `${BASE}onnx/model.onnx_data`]);
  expect([...a.errors, ...b.errors]).toEqual([]);
});

test('three tabs stream at once from the one engine of the first', async ({ context }) => {
  const tabs = [await openTab(context), await openTab(context), await openTab(context)];
  const prompts = ['नमस्ते', 'Hello there', 'வணக்கம்'];
  const alone: string[] = [];
  for (const [i, tab] of tabs.entries()) alone.push((await chat(tab.page, { prompt: prompts[i]! })).text);
  const streams = await Promise.all(tabs.map((tab, i) => chat(tab.page, { prompt: prompts[i]!, stream: true })));
  streams.forEach((stream, i) => expect(stream).toMatchObject({ text: alone[i], error: '' }));
  expect(tabs.map((tab) => tab.engines('chat.worker'))).toEqual([1, 0, 0]);
});

test('the holding tab closes mid-stream: the other tab gets a 503, and its next request starts the engine there', async ({
  context,
}) => {
  const a = await openTab(context);
  const b = await openTab(context);
  await chat(a.page, { prompt: 'नमस्ते', max: 2 });
  const reference = (await chat(b.page, { prompt: 'Hello there', max: 200 })).text;
  expect(b.engines('chat.worker')).toBe(0);

  const streaming = b.page.evaluate(async () => {
    const ai = (window as unknown as { ai: ReturnType<typeof window.Vaani.createVaani> }).ai;
    const response = await ai.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'chat-v2',
        messages: [{ role: 'user', content: 'Hello there' }],
        temperature: 0,
        max_tokens: 1500,
        stream: true,
      }),
    });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const progress = window as unknown as { received: number };
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      text += next.value;
      progress.received = text.split('\n\n').length;
    }
    return { status: response.status, events: text.split('\n\n').filter(Boolean) };
  });
  // Close the holder once B's stream is under way.
  await b.page.waitForFunction(() => (window as unknown as { received?: number }).received! > 3);
  await a.page.close();
  const cut = await streaming;
  expect(cut.status).toBe(200);
  const last = JSON.parse(
    cut.events
      .filter((event) => event !== 'data: [DONE]')
      .at(-1)!
      .slice('data: '.length),
  );
  expect(last.error, JSON.stringify(cut.events.slice(-2))).toMatchObject({ code: 'engine_crashed' });
  expect(last.error.message).toMatch(/tab that held the chat \(chat-v2\) engine closed/);

  // The next request (the openai SDK, default retries) runs in B, which now holds the engine.
  expect((await chat(b.page, { prompt: 'Hello there', max: 200 })).text).toBe(reference);
  expect(b.engines('chat.worker')).toBe(1);
  expect(b.errors).toEqual([]);
});

test('a second model in another tab: each tab holds one, and each uses the other', async ({ context }) => {
  const a = await openTab(context);
  const b = await openTab(context);
  const chatAnswer = (await chat(a.page, { prompt: 'नमस्ते', model: 'chat-v2' })).text;
  const proAnswer = (await chat(b.page, { prompt: 'नमस्ते', model: 'chat-v2-pro' })).text;
  expect(await chat(b.page, { prompt: 'नमस्ते', model: 'chat-v2' })).toMatchObject({ text: chatAnswer });
  expect(await chat(a.page, { prompt: 'नमस्ते', model: 'chat-v2-pro' })).toMatchObject({ text: proAnswer });
  expect([a.engines('chat.worker'), b.engines('chat.worker')]).toEqual([1, 1]);
});

test('share: false runs every engine in its own tab, as before', async ({ context }) => {
  const a = await openTab(context, false);
  const b = await openTab(context, false);
  const shared = (tab: typeof a) =>
    tab.page.evaluate(() => (window as unknown as { ai: { shared: boolean } }).ai.shared);
  expect([await shared(a), await shared(b)]).toEqual([false, false]);
  await chat(a.page, { prompt: 'नमस्ते', max: 2 });
  await chat(b.page, { prompt: 'नमस्ते', max: 2 });
  expect([a.engines('chat.worker'), b.engines('chat.worker')]).toEqual([1, 1]);
});

test('a tab past its engine budget ends the idle engine used least recently; its next request loads it again', async ({
  context,
}) => {
  for (const share of [false, true]) {
    const tab = await openTab(context, share, 1); // room for one model at a time
    const first = (await chat(tab.page, { prompt: 'नमस्ते', model: 'chat-v2' })).text;
    expect(tab.running('chat.worker')).toBe(1);
    const other = (await chat(tab.page, { prompt: 'नमस्ते', model: 'chat-v2-pro', max: 2 })).text;
    await expect.poll(() => tab.running('chat.worker')).toBe(1);
    expect(tab.engines('chat.worker')).toBe(2);
    expect(other.length).toBeGreaterThan(0);
    expect((await chat(tab.page, { prompt: 'नमस्ते', model: 'chat-v2' })).text).toBe(first);
    await expect.poll(() => tab.running('chat.worker')).toBe(1);
    expect(tab.engines('chat.worker')).toBe(3);
    expect(tab.errors).toEqual([]);
    await tab.page.close();
  }
});

test('models held by different tabs never evict each other; a model a tab lets go moves to the next tab that needs it', async ({
  context,
}) => {
  const a = await openTab(context, true, 1);
  const b = await openTab(context, true);
  const answers = {
    chat: (await chat(a.page, { prompt: 'नमस्ते', model: 'chat-v2' })).text,
    pro: (await chat(b.page, { prompt: 'Hello there', model: 'chat-v2-pro' })).text,
  };
  // Each tab holds one model and uses the other's, back and forth: no engine ever restarts.
  for (let round = 0; round < 3; round++) {
    expect((await chat(a.page, { prompt: 'Hello there', model: 'chat-v2-pro' })).text).toBe(answers.pro);
    expect((await chat(b.page, { prompt: 'नमस्ते', model: 'chat-v2' })).text).toBe(answers.chat);
  }
  expect([a.engines('chat.worker'), b.engines('chat.worker')]).toEqual([1, 1]);

  // A third model in A, whose budget fits one: A lets chat-v2 go, and B takes it up on its next request.
  const explained = await a.page.evaluate(async () => {
    const ai = (window as unknown as { ai: ReturnType<typeof window.Vaani.createVaani> }).ai;
    const response = await ai.fetch('/v1/code/completions', {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'code-v1', mode: 'explain', prompt: 'x = 1', max_tokens: 2 }),
    });
    return response.status;
  });
  expect(explained).toBe(200);
  await expect.poll(() => a.running('chat.worker')).toBe(1);
  expect((await chat(b.page, { prompt: 'नमस्ते', model: 'chat-v2' })).text).toBe(answers.chat);
  expect(b.engines('chat.worker')).toBe(2);
  // A now sends chat-v2 to B instead of loading it again.
  expect((await chat(a.page, { prompt: 'नमस्ते', model: 'chat-v2' })).text).toBe(answers.chat);
  expect([a.engines('chat.worker'), b.engines('chat.worker')]).toEqual([2, 2]);
  expect([...a.errors, ...b.errors]).toEqual([]);
});
