import { join } from 'node:path';
import { expect as baseExpect, test, type Page } from '@playwright/test';
import { ensureTinyDiffusion, FIXTURE_URL as DIFFUSION_URL } from '../fixtures/diffusion/ensure';
import { ensureEncoderFixture } from '../fixtures/encoder/fixture-dir';
import { tinyXlmr } from '../fixtures/encoder/spec';
import { ensureDecoderFixture } from '../fixtures/llm/fixture-dir';
import { tinyLlama, tinyQwen2 } from '../fixtures/llm/spec';
import { microphone } from '../fixtures/whisper/microphone';
import { FIXTURE_URL as WHISPER_URL } from '../fixtures/whisper/ensure';
import { makePdf } from '../support/pdf';
import { serveStrict } from './support/csp-server';
import { ensureWidgetModels, ESPEAK_BASE, ONE_UTTERANCE, SHORT_ANSWER, type WidgetModels } from './support/widgets';

/**
 * The built library on a page served with a strict Content-Security-Policy and Trusted Types
 * (support/csp-server.ts): every product answers and every widget works, with no violation seen by
 * the page (`securitypolicyviolation`), reported by the browser for the page or any worker
 * (`report-uri`), or logged to a console.
 */
const PAGE = '/test/browser/pages/csp/index.html';
const CALL = '{"name": "get_weather", "arguments": {"city": "Pune", "unit": "celsius"}}';

const expect = baseExpect.configure({ timeout: 90_000 });
const mic = microphone(ONE_UTTERANCE());
// The fake microphone's launch options replace the config's: WebGPU (a software adapter here) is asked for again.
test.use({ launchOptions: { ...mic.launchOptions, args: [...mic.launchOptions.args, '--enable-unsafe-webgpu'] } });
test.beforeEach(() => test.slow());

let server: Awaited<ReturnType<typeof serveStrict>>;
let widgetModels: WidgetModels;
let urls: Record<'caller' | 'plain' | 'embed', string>;
test.beforeAll(async () => {
  widgetModels = await ensureWidgetModels();
  await ensureTinyDiffusion();
  // The same fixtures as agents.spec and code.spec: written once, shared.
  const caller = await ensureDecoderFixture('tiny-tool-caller', {
    ...tinyLlama,
    dtypes: ['fp32'],
    seed: 7,
    scripted: { chain: ['Ċ', '<tool_call>', CALL, '</tool_call>', '<|im_end|>'], addedTokens: [CALL] },
  });
  const plain = await ensureDecoderFixture('tiny-qwen2-plain', { ...tinyQwen2, dtypes: ['fp32'] });
  const embed = await ensureEncoderFixture('tiny-xlmr', tinyXlmr);
  urls = { caller: caller.url, plain: plain.url, embed: embed.url };
  server = await serveStrict(process.cwd(), join(process.cwd(), '../shared'));
});
test.afterAll(() => server?.close());

/** Opens the strict page; returns what it saw go wrong: page errors and CSP / Trusted Types console lines. */
async function openStrict(page: Page) {
  const errors: string[] = [];
  const csp = /Content Security Policy|Trusted Type|unsafe-eval|EvalError/i;
  const watch = (text: string) => csp.test(text) && errors.push(text);
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => watch(message.text()));
  page.on('worker', (worker) => worker.on('console', (message) => watch(`worker ${worker.url()}: ${message.text()}`)));
  const response = await page.goto(`${server.origin}${PAGE}`);
  expect(response!.headers()['content-security-policy']).toContain("require-trusted-types-for 'script'");
  await page.waitForFunction(() => document.title === 'ready');
  expect(await page.evaluate(() => 'trustedTypes' in window)).toBe(true);
  return errors;
}

/** No violation anywhere: the page's events, the browser's reports (page and workers), the console. */
async function expectNoViolations(page: Page, errors: string[]) {
  // Reports are posted after the fact.
  await page.waitForTimeout(1000);
  expect(await page.evaluate(() => (window as unknown as { violations: unknown[] }).violations)).toEqual([]);
  expect(server.reports).toEqual([]);
  expect(errors).toEqual([]);
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Answer = { status: number; type: string; json?: Json; bytes: number; ms: number };

/** POSTs one request to the page's Vaani (`window.ai`); a request that does not answer in 150 s is an error. */
const call = (
  page: Page,
  path: string,
  body: object | { form: Record<string, string | { url?: string; base64?: string; name: string; type?: string }> },
) =>
  page.evaluate(
    async ({ path, body }) => {
      const ai = (window as unknown as { ai: ReturnType<typeof window.Vaani.createVaani> }).ai;
      let payload: string | FormData = JSON.stringify(body);
      if ('form' in body) {
        payload = new FormData();
        for (const [name, value] of Object.entries(body.form)) {
          if (typeof value === 'string') payload.set(name, value);
          else {
            const bytes = value.url
              ? await (await fetch(value.url)).arrayBuffer()
              : Uint8Array.from(atob(value.base64!), (c) => c.charCodeAt(0));
            payload.set(name, new File([bytes], value.name, { type: value.type ?? '' }));
          }
        }
      }
      const started = performance.now();
      const response = await ai.fetch(`${ai.baseURL}${path}`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer k',
          ...(typeof payload === 'string' ? { 'content-type': 'application/json' } : {}),
        },
        body: payload,
        signal: AbortSignal.timeout(150_000),
      });
      const type = response.headers.get('content-type') ?? '';
      const json = type.includes('json') ? await response.json() : undefined;
      const bytes = json ? 0 : (await response.arrayBuffer()).byteLength;
      return { status: response.status, type, json, bytes, ms: Math.round(performance.now() - started) };
    },
    { path, body },
  ) as Promise<Answer>;

test('under a strict CSP and Trusted Types every product answers: chat, speech, transcription, embeddings, images, memory, files and vector stores, PDFs, agents, code', async ({
  page,
}) => {
  test.setTimeout(900_000);
  const errors = await openStrict(page);
  await page.evaluate(
    ({ urls, whisper, espeak, diffusion }) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        // Two threads (the default on this 2-core machine is one): onnxruntime's threads start under the CSP too.
        threads: 2,
        models: {
          'chat-v2': { baseURL: urls.random },
          'agent-v1': { baseURL: urls.caller },
          'code-v1': { baseURL: urls.plain },
          'code-v1-base': { baseURL: urls.plain },
          'embed-v1': { baseURL: urls.embed, dtype: 'fp32' },
          'speech-stt-v1': { baseURL: whisper, dtype: 'fp32', indic: false },
          'espeak-ng': { baseURL: espeak },
          'image-v1': { baseURL: diffusion },
        },
      });
      ai.tools.register({
        name: 'get_weather',
        description: 'Current weather in a city',
        annotations: { readOnlyHint: true },
        inputSchema: {
          type: 'object',
          properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
          required: ['city', 'unit'],
        },
        execute: async () => ({ temperature: 27 }),
      });
      (window as unknown as { ai: unknown }).ai = ai;
    },
    {
      urls: { ...urls, random: widgetModels.random },
      whisper: `${WHISPER_URL}tiny/`,
      espeak: ESPEAK_BASE,
      diffusion: `${DIFFUSION_URL}tiny/`,
    },
  );
  const got: Record<string, Answer> = {};
  const step = async (name: string, path: string, body: Parameters<typeof call>[2]) => {
    got[name] = await call(page, path, body).catch((error: Error) => ({
      status: 0,
      type: error.message,
      bytes: 0,
      ms: 0,
    }));
    test.info().annotations.push({ type: name, description: `${got[name].status} in ${got[name].ms} ms` });
  };
  const messages = [{ role: 'user', content: 'नमस्ते' }];
  await step('chat', '/chat/completions', { model: 'chat-v2', messages, max_tokens: 4 });
  // Structured output loads XGrammar (WASM with embind).
  await step('json', '/chat/completions', {
    model: 'chat-v2',
    messages,
    max_tokens: 8,
    response_format: { type: 'json_object' },
  });
  for (const format of ['wav', 'flac', 'opus'])
    await step(`speech-${format}`, '/audio/speech', {
      model: 'tts-1',
      voice: 'en-US-female-1',
      input: 'Hello there.',
      response_format: format,
    });
  await step('transcription', '/audio/transcriptions', {
    form: {
      model: 'speech-stt-v1',
      file: { url: `${WHISPER_URL}audio/widgets-one-48k.wav`, name: 'one.wav', type: 'audio/wav' },
    },
  });
  await step('embeddings', '/embeddings', { model: 'embed-v1', input: ['tea', 'चाय'] });
  await step('images', '/images/generations', { model: 'image-v1', prompt: 'a Mughal garden', seed: 5 });
  await step('memoryStore', '/memory/store', { text: 'मुझे चाय पसंद है।', scope: { user_id: 'asha' } });
  await step('memorySearch', '/memory/search', { query: 'चाय', scope: { user_id: 'asha' } });
  await step('file', '/files', {
    form: {
      purpose: 'assistants',
      file: {
        base64: Buffer.from('The harbour opens at dawn. Boats leave from pier seven.').toString('base64'),
        name: 'harbour.md',
      },
    },
  });
  const pdf = makePdf([{ heading: 'Harbour', lines: ['The lighthouse keeper writes the weather log at noon.'] }]);
  await step('pdf', '/files', {
    form: {
      purpose: 'assistants',
      file: { base64: Buffer.from(pdf).toString('base64'), name: 'guide.pdf', type: 'application/pdf' },
    },
  });
  await step('store', '/vector_stores', { name: 'guide', file_ids: [got.file?.json?.id, got.pdf?.json?.id] });
  // Files are ingested after the store answers: the search waits until both are (the PDF through pdf.js).
  const counts = await page.evaluate(async (id) => {
    const ai = (window as unknown as { ai: ReturnType<typeof window.Vaani.createVaani> }).ai;
    for (;;) {
      const response = await ai.fetch(`${ai.baseURL}/vector_stores/${id}`, { headers: { authorization: 'Bearer k' } });
      const { file_counts } = await response.json();
      if (!file_counts?.in_progress) return file_counts;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, got.store?.json?.id);
  expect(counts).toMatchObject({ completed: 2, failed: 0 });
  await step('search', `/vector_stores/${got.store?.json?.id}/search`, { query: 'lighthouse' });
  await step('agent', '/agents/run', { model: 'agent-v1', input: 'पुणे?', tools: ['get_weather'], max_steps: 1 });
  await step('code', '/code/completions', { model: 'code-v1', prompt: 'def add(a, b):\n    ', max_tokens: 4 });
  const failed = Object.entries(got).filter(([, answer]) => answer.status !== 200);
  expect(
    failed.map(([name, answer]) => `${name}: ${answer.status} ${answer.type} ${JSON.stringify(answer.json)}`),
    JSON.stringify({ reports: server.reports, errors }),
  ).toEqual([]);
  expect(got.chat!.json!.choices[0].message.content.length).toBeGreaterThan(0);
  expect(got['speech-wav']!.type).toBe('audio/wav');
  expect(got['speech-flac']!.type).toBe('audio/flac');
  expect(got['speech-opus']!.type).toBe('audio/ogg');
  for (const format of ['wav', 'flac', 'opus']) expect(got[`speech-${format}`]!.bytes).toBeGreaterThan(500);
  expect(typeof got.transcription!.json!.text).toBe('string');
  expect(got.embeddings!.json!.data).toHaveLength(2);
  expect(got.images!.json!.data[0].b64_json.length).toBeGreaterThan(100);
  expect(got.memorySearch!.json!.data[0].text).toBe('मुझे चाय पसंद है।');
  expect(got.search!.json!.data.map((hit: { filename: string }) => hit.filename)).toContain('guide.pdf');
  expect(JSON.stringify(got.agent!.json)).toContain('get_weather');
  expect(got.code!.json!.choices[0].text.length).toBeGreaterThan(0);
  await page.evaluate(() => (window as unknown as { ai: { dispose(): void } }).ai.dispose());
  await expectNoViolations(page, errors);
});

test('under a strict CSP and Trusted Types every widget works: chat, read-aloud, dictation, voice assistant', async ({
  page,
}) => {
  test.setTimeout(600_000);
  const errors = await openStrict(page);
  await page.evaluate(
    ({ models, espeak }) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: {
          'chat-v2': { baseURL: models.short },
          'speech-stt-v1': { baseURL: models.whisper, dtype: 'fp32' },
          'espeak-ng': { baseURL: espeak },
        },
      });
      window.Vaani.widgets.use(ai);
      // The test builds the page with DOM APIs: under Trusted Types it may not set HTML either.
      const root = document.querySelector('#root')!;
      const add = (tag: string, attributes: Record<string, string>, text = '') => {
        const element = root.appendChild(document.createElement(tag));
        for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
        element.textContent = text;
        return element;
      };
      add('input', { id: 'field', type: 'text', 'aria-label': 'Your message' });
      add('vaani-dictate', { for: 'field', language: 'en', 'silence-ms': '1200' });
      add('p', { id: 'story' }, 'Once upon a time there was a tiny model.');
      add('vaani-speak', { for: 'story', voice: 'en-US-female-1' });
      add('vaani-chat', { speak: '', 'max-tokens': '16' });
      add('vaani-voice-assistant', { voice: 'en-US-female-1', language: 'en', 'silence-ms': '1200' });
    },
    { models: widgetModels, espeak: ESPEAK_BASE },
  );
  const chat = page.locator('vaani-chat');
  await chat.locator('[part~=input]').fill('Hello');
  await chat.locator('[part~=send]').click();
  await expect(chat.locator('.message.assistant .body strong')).toHaveText('Vaani');
  await expect(chat).toHaveAttribute('state', 'idle');

  // The page's own read-aloud button, not the one in the chat's answer.
  const speak = page.locator('#root > vaani-speak');
  await speak.locator('[part~=play]').click();
  await expect(speak).toHaveAttribute('state', 'speaking');
  await speak.locator('[part~=stop]').click();
  await expect(speak).toHaveAttribute('state', 'idle');

  const result = (tag: string) =>
    page.evaluate(
      (tag) =>
        new Promise<Record<string, unknown>>((resolve, reject) => {
          document.addEventListener('vaani-result', (event) => {
            if ((event.target as Element).localName === tag) resolve((event as CustomEvent).detail);
          });
          document.addEventListener('vaani-error', (event) =>
            reject(new Error(JSON.stringify((event as CustomEvent).detail))),
          );
        }),
      tag,
    );
  const dictated = result('vaani-dictate');
  await page.locator('vaani-dictate').locator('[part~=button]').click();
  expect(String((await dictated).text).length).toBeGreaterThan(0);
  await expect(page.locator('#field')).not.toHaveValue('');

  // Each capture hears the fake microphone's utterance from its start.
  const assistant = page.locator('vaani-voice-assistant');
  const turn = result('vaani-voice-assistant');
  await assistant.locator('[part~=talk]').click();
  expect((await turn).answer).toBe(SHORT_ANSWER.join(''));
  await expect(assistant.locator('.turn.assistant strong')).toHaveText('Vaani');
  await assistant.evaluate((element: HTMLElement & { end(): Promise<void> }) => element.end());
  await expectNoViolations(page, errors);
});

test('under a strict CSP and Trusted Types chat answers on WebGPU (onnxruntime-web’s WebGPU bundle)', async ({
  page,
}) => {
  const errors = await openStrict(page);
  const got = await page.evaluate(async (model) => {
    const ai = window.Vaani.createVaani({ backend: 'webgpu', models: { 'chat-v2': { baseURL: model } } });
    const response = await ai.fetch(`${ai.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'chat-v2', messages: [{ role: 'user', content: 'नमस्ते' }], max_tokens: 4 }),
    });
    const json = await response.json();
    ai.dispose();
    return { status: response.status, backend: response.headers.get('x-vaani-backend'), json };
  }, urls.plain);
  expect(got.status, JSON.stringify(got.json)).toBe(200);
  expect(got.backend).toBe('webgpu');
  await expectNoViolations(page, errors);
});
