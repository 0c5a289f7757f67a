import { expect, test } from '@playwright/test';
import { ensureEncoderFixture } from '../fixtures/encoder/fixture-dir';
import { tinyXlmr } from '../fixtures/encoder/spec';
import { ensureDecoderFixture, type FixtureLocation } from '../fixtures/llm/fixture-dir';
import { tinyLlama, tinyQwen2 } from '../fixtures/llm/spec';
import { openHarness } from './support/page';

const PAGE = '/test/browser/pages/chat.html';
const CALL = '{"name": "get_weather", "arguments": {"city": "Pune", "unit": "celsius"}}';
const SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
  required: ['city', 'unit'],
  additionalProperties: false,
};

/** Writes the same get_weather call to any ChatML prompt. */
let caller: FixtureLocation;
/** Writes two calls at once (Pune, then Goa: the second call is one added token). */
let twoCalls: FixtureLocation;
/** Random weights: only constrained decoding makes its calls valid. */
let random: FixtureLocation;
let embedder: string;

test.beforeAll(async () => {
  caller = await ensureDecoderFixture('tiny-tool-caller', {
    ...tinyLlama,
    dtypes: ['fp32'],
    seed: 7,
    scripted: { chain: ['Ċ', '<tool_call>', CALL, '</tool_call>', '<|im_end|>'], addedTokens: [CALL] },
  });
  const second = `<tool_call>${CALL.replace('Pune', 'Goa')}</tool_call>`;
  twoCalls = await ensureDecoderFixture('tiny-two-callers', {
    ...tinyLlama,
    dtypes: ['fp32'],
    seed: 8,
    scripted: { chain: ['Ċ', '<tool_call>', CALL, '</tool_call>', second, '<|im_end|>'], addedTokens: [CALL, second] },
  });
  random = await ensureDecoderFixture('tiny-qwen2-plain', { ...tinyQwen2, dtypes: ['fp32'] });
  embedder = (await ensureEncoderFixture('tiny-xlmr', tinyXlmr)).url;
});

test('a page-registered tool runs with valid arguments every step, its result reaches the next step, max_steps ends the run; streamed events; throwing and unknown tools go back to the model', async ({
  page,
}) => {
  const errors = await openHarness(page, PAGE);
  const result = await page.evaluate(
    async ({ base, schema }) => {
      const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'agent-v1': { baseURL: base } } });
      const received: unknown[] = [];
      const off = ai.tools.register({
        name: 'get_weather',
        description: 'Current weather in a city',
        inputSchema: schema,
        annotations: { readOnlyHint: true },
        execute: async (args, { signal }) => {
          received.push({ args, aborted: signal.aborted });
          return { temperature: 27 };
        },
      });
      const post = (body: object) =>
        ai.fetch(`${ai.baseURL}/agents/run`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
          body: JSON.stringify({ model: 'agent-v1', input: 'पुणे में मौसम?', temperature: 0, ...body }),
        });
      const run = await (await post({ tools: ['get_weather'], tool_choice: 'required', max_steps: 3 })).json();
      const streamed = await (await post({ tools: ['get_weather'], max_steps: 2, stream: true })).text();
      off();
      ai.tools.register({
        name: 'get_weather',
        inputSchema: schema,
        annotations: { readOnlyHint: true },
        execute: () => {
          throw new Error('station offline');
        },
      });
      const throwing = await (await post({ tools: ['get_weather'], max_steps: 1 })).json();
      const declared = [{ type: 'function', function: { name: 'get_weather', parameters: schema } }];
      const other = window.Vaani.createVaani({ backend: 'wasm', models: { 'agent-v1': { baseURL: base } } });
      const unknown = await (
        await other.fetch(`${other.baseURL}/agents/run`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
          body: JSON.stringify({ input: 'x', tools: declared, max_steps: 1 }),
        })
      ).json();
      ai.dispose();
      other.dispose();
      return { run, received, streamed, throwing, unknown };
    },
    { base: caller.url, schema: SCHEMA },
  );
  expect(errors).toEqual([]);
  const { run } = result;
  expect(run.status).toBe('incomplete');
  expect(run.incomplete_details).toEqual({ reason: 'max_steps' });
  expect(run.steps).toHaveLength(3);
  // Three calls in the whole run, two in the streamed one.
  expect(result.received).toEqual(Array(5).fill({ args: { city: 'Pune', unit: 'celsius' }, aborted: false }));
  for (const step of run.steps) {
    expect(step.tool_calls).toEqual([
      expect.objectContaining({ name: 'get_weather', output: '{"temperature":27}', is_error: false }),
    ]);
    expect(step.tool_calls[0].duration_ms).toBeGreaterThanOrEqual(0);
  }
  // Each step's prompt holds the calls and results before it.
  expect(run.steps[1].usage.prompt_tokens).toBeGreaterThan(run.steps[0].usage.prompt_tokens);
  expect(run.steps[2].usage.prompt_tokens).toBeGreaterThan(run.steps[1].usage.prompt_tokens);
  expect(run.usage.prompt_tokens).toBe(
    run.steps.reduce((sum: number, s: { usage: { prompt_tokens: number } }) => sum + s.usage.prompt_tokens, 0),
  );

  const names = result.streamed
    .split('\n\n')
    .filter(Boolean)
    .map((event) => event.split('\n')[0]);
  expect(names).toEqual([
    'event: step.started',
    'event: tool_call',
    'event: tool_result',
    'event: step.started',
    'event: tool_call',
    'event: tool_result',
    'event: run.completed',
    'data: [DONE]',
  ]);
  expect(result.throwing.steps[0].tool_calls[0]).toMatchObject({ is_error: true, output: 'Error: station offline' });
  expect(result.unknown.steps[0].tool_calls[0]).toMatchObject({ is_error: true });
  expect(result.unknown.steps[0].tool_calls[0].output).toMatch(/^Error: no tool named 'get_weather' runs in this page/);
});

test('random weights under tool_choice required: the first step calls the page tool with schema-valid arguments; memory.search runs as a built-in', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const errors = await openHarness(page, PAGE);
  const result = await page.evaluate(
    async ({ base, embedder, schema }) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: {
          'agent-v1': { baseURL: base },
          'embed-v1': {
            baseURL: embedder,
            dtype: 'fp32',
            embedding: { prefixes: { query: 'query: ', passage: 'passage: ' } },
          },
        },
      });
      const received: unknown[] = [];
      ai.tools.register({
        name: 'get_weather',
        inputSchema: schema,
        annotations: { readOnlyHint: true },
        execute: (args) => (received.push(args), 'sunny'),
      });
      const post = async (body: object) =>
        (
          await ai.fetch(`${ai.baseURL}/agents/run`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
            body: JSON.stringify({ model: 'agent-v1', input: 'weather?', max_tokens: 120, seed: 1, ...body }),
          })
        ).json();
      const run = await post({ tools: ['get_weather'], tool_choice: 'required', max_steps: 2 });
      await ai.memory.store({ text: 'Asha likes masala chai.', scope: { user_id: 'asha' } });
      const memory = await post({
        tools: [{ type: 'memory.search', scope: { user_id: 'asha' } }],
        tool_choice: { type: 'function', function: { name: 'memory.search' } },
        max_steps: 1,
      });
      await ai.memory.deleteScope({ user_id: 'asha' });
      ai.dispose();
      return { run, received, memory };
    },
    { base: random.url, embedder, schema: SCHEMA },
  );
  expect(errors).toEqual([]);
  const first = result.run.steps[0].tool_calls;
  expect(first.length).toBeGreaterThan(0);
  expect(first[0]).toMatchObject({ name: 'get_weather', is_error: false, output: 'sunny' });
  const args = result.received[0] as { city: unknown; unit: unknown };
  expect(typeof args.city).toBe('string');
  expect(['celsius', 'fahrenheit']).toContain(args.unit);
  const search = result.memory.steps[0].tool_calls[0];
  expect(search).toMatchObject({ name: 'memory.search', is_error: false });
  expect(JSON.parse(search.output)).toEqual([{ text: 'Asha likes masala chai.', score: expect.any(Number) }]);
});

test('built-ins memory.store and file_search run through the page routes when a request enables them', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const errors = await openHarness(page, PAGE);
  const result = await page.evaluate(
    async ({ base, embedder }) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: {
          'agent-v1': { baseURL: base },
          'embed-v1': {
            baseURL: embedder,
            dtype: 'fp32',
            embedding: { prefixes: { query: 'query: ', passage: 'passage: ' } },
          },
        },
        // memory.store writes: it runs once approved (file_search only reads).
        approve: (call) => call.name === 'memory.store',
      });
      const post = async (body: object) =>
        (
          await ai.fetch(`${ai.baseURL}/agents/run`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
            body: JSON.stringify({
              model: 'agent-v1',
              input: 'remember this',
              max_tokens: 120,
              seed: 2,
              max_steps: 1,
              ...body,
            }),
          })
        ).json();
      const scope = { user_id: 'ravi' };
      const stored = await post({
        tools: [{ type: 'memory.store', scope }],
        tool_choice: { type: 'function', function: { name: 'memory.store' } },
      });
      const kept = await ai.memory.list({ scope });
      const { store } = await ai.data.add(
        new File(['The Konark temple faces the sunrise.'], 'konark.txt', { type: 'text/plain' }),
      );
      const searched = await post({
        tools: [{ type: 'file_search', vector_store_ids: [store] }],
        tool_choice: 'required',
      });
      await ai.memory.deleteScope(scope);
      ai.dispose();
      return { stored, kept, searched };
    },
    { base: random.url, embedder },
  );
  expect(errors).toEqual([]);
  const store = result.stored.steps[0].tool_calls[0];
  expect(store).toMatchObject({ name: 'memory.store', is_error: false });
  const text = (JSON.parse(store.arguments) as { text: string }).text;
  expect(result.kept.data.map((item: { text: string }) => item.text)).toEqual([text.trim()]);
  expect(JSON.parse(store.output).stored).toEqual(result.kept.data.map((item: { id: string }) => item.id));
  const search = result.searched.steps[0].tool_calls[0];
  expect(search).toMatchObject({ name: 'file_search', is_error: false });
  expect(JSON.parse(search.output)[0]).toMatchObject({
    filename: 'konark.txt',
    text: 'The Konark temple faces the sunrise.',
  });
});

test('parallel calls (two in one step) run concurrently in the page; the trace keeps call order', async ({ page }) => {
  const errors = await openHarness(page, PAGE);
  const result = await page.evaluate(
    async ({ base, schema }) => {
      const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'agent-v1': { baseURL: base } } });
      const log: string[] = [];
      ai.tools.register({
        name: 'get_weather',
        inputSchema: schema,
        annotations: { readOnlyHint: true },
        // Pune answers late, Goa at once: both must have started before either ends.
        execute: async ({ city }) => {
          log.push(`start ${String(city)}`);
          await new Promise((r) => setTimeout(r, city === 'Pune' ? 300 : 1));
          log.push(`end ${String(city)}`);
          return `${String(city)}: sunny`;
        },
      });
      const response = await ai.fetch(`${ai.baseURL}/agents/run`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
        body: JSON.stringify({ input: 'Pune and Goa?', tools: ['get_weather'], max_steps: 2, temperature: 0 }),
      });
      const run = await response.json();
      ai.dispose();
      return { run, log };
    },
    { base: twoCalls.url, schema: SCHEMA },
  );
  expect(errors).toEqual([]);
  const calls = result.run.steps[0].tool_calls as { name: string; arguments: string; output: string }[];
  expect(calls.map((call) => JSON.parse(call.arguments).city)).toEqual(['Pune', 'Goa']);
  expect(calls.map((call) => call.output)).toEqual(['Pune: sunny', 'Goa: sunny']);
  expect(result.log.slice(0, 4)).toEqual(['start Pune', 'start Goa', 'end Goa', 'end Pune']);
});

test('abort mid-tool: the running tool sees its signal abort, and the next run works', async ({ page }) => {
  const errors = await openHarness(page, PAGE);
  const result = await page.evaluate(
    async ({ base, schema }) => {
      const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'agent-v1': { baseURL: base } } });
      const controller = new AbortController();
      let toolAborted = false;
      let calls = 0;
      ai.tools.register({
        name: 'get_weather',
        inputSchema: schema,
        annotations: { readOnlyHint: true },
        // The first call waits until the run is aborted; later ones answer at once.
        execute: (_args, { signal }) =>
          calls++
            ? 'sunny'
            : new Promise((resolve) => {
                signal.addEventListener('abort', () => resolve((toolAborted = true)));
                setTimeout(() => controller.abort(), 50);
              }),
      });
      const init = (signal?: AbortSignal) => ({
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
        body: JSON.stringify({ input: 'x', tools: ['get_weather'], max_steps: 1 }),
        signal,
      });
      const aborted = await ai
        .fetch(`${ai.baseURL}/agents/run`, init(controller.signal))
        .then(() => 'answered')
        .catch((e: Error) => e.name);
      await new Promise((r) => setTimeout(r, 50));
      ai.tools.register({ name: 'other', execute: () => 1 });
      const bad = await ai.fetch(`${ai.baseURL}/agents/run`, {
        ...init(),
        body: JSON.stringify({ input: 'x', tools: ['missing'] }),
      });
      const next = await ai.fetch(`${ai.baseURL}/agents/run`, init());
      ai.dispose();
      return { aborted, toolAborted, bad: { status: bad.status, error: (await bad.json()).error }, next: next.status };
    },
    { base: caller.url, schema: SCHEMA },
  );
  expect(errors).toEqual([]);
  expect(result.aborted).toBe('AbortError');
  expect(result.toolAborted).toBe(true);
  expect(result.bad).toMatchObject({
    status: 400,
    error: { param: 'tools[0]', code: 'tool_not_found', type: 'invalid_request_error' },
  });
  expect(result.next).toBe(200);
});
