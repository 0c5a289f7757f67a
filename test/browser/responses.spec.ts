import { expect, test } from '@playwright/test';
import { ensureDecoderFixture, type FixtureLocation } from '../fixtures/llm/fixture-dir';
import { tinyLlama, tinyQwen2 } from '../fixtures/llm/spec';
import { openHarness } from './support/page';

const PAGE = '/test/browser/pages/chat.html';
const CALL = '{"name": "get_weather", "arguments": {"city": "Pune", "unit": "celsius"}}';
const PARAMETERS = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
  required: ['city', 'unit'],
  additionalProperties: false,
};

/** Writes one Hermes tool call to any ChatML prompt (the chat-tools fixture). */
let caller: FixtureLocation;
/** Random weights: only constrained decoding makes its calls valid. */
let random: FixtureLocation;

test.beforeAll(async () => {
  caller = await ensureDecoderFixture('tiny-tool-caller', {
    ...tinyLlama,
    dtypes: ['fp32'],
    seed: 7,
    scripted: { chain: ['Ċ', '<tool_call>', CALL, '</tool_call>', '<|im_end|>'], addedTokens: [CALL] },
  });
  random = await ensureDecoderFixture('tiny-qwen2-plain', { ...tinyQwen2, dtypes: ['fp32'] });
});

test('client.responses.create through the shim: a function_call item, its output sent back with previous_response_id, streamed events and responses.stream()', async ({
  page,
}) => {
  const errors = await openHarness(page, PAGE);
  const result = await page.evaluate(
    async ({ base, parameters }) => {
      const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
      });
      const tools = [{ type: 'function' as const, name: 'get_weather', parameters, strict: true }];
      const body = { model: 'chat-v2', input: 'पुणे में मौसम कैसा है?', tools, temperature: 0 };
      const first = await client.responses.create(body);
      const call = first.output[0] as { type: string; call_id: string; name: string; arguments: string };
      const second = await client.responses.create({
        ...body,
        input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"temperature": 27}' }],
        previous_response_id: first.id,
      });
      const types = [];
      for await (const event of await client.responses.create({ ...body, stream: true })) types.push(event.type);
      const streamed = await client.responses.stream(body).finalResponse();
      ai.dispose();
      return { first, call, second, types, streamed };
    },
    { base: caller.url, parameters: PARAMETERS },
  );
  expect(errors).toEqual([]);
  const { first, call, second, types, streamed } = result;
  expect(first.status).toBe('completed');
  expect(call.type).toBe('function_call');
  expect(call.call_id).toMatch(/^call_/);
  expect({ name: call.name, arguments: JSON.parse(call.arguments) }).toEqual({
    name: 'get_weather',
    arguments: { city: 'Pune', unit: 'celsius' },
  });
  expect(second.usage!.input_tokens).toBeGreaterThan(first.usage!.input_tokens);
  expect(second.previous_response_id).toBe(first.id);
  expect(types[0]).toBe('response.created');
  expect(types).toContain('response.function_call_arguments.delta');
  expect(types.at(-1)).toBe('response.completed');
  expect(streamed.output.map((item) => item.type)).toEqual(['function_call']);
});

test('random weights under tool_choice required and text.format json_schema: constrained answers are schema-valid; chat.completions.runTools runs the page function', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const errors = await openHarness(page, PAGE);
  const result = await page.evaluate(
    async ({ base, caller, parameters }) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: { 'chat-v2': { baseURL: base }, 'chat-v2-pro': { baseURL: caller } },
      });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
      });
      const tools = [{ type: 'function' as const, name: 'get_weather', parameters, strict: true }];
      const required = await client.responses.create({
        model: 'chat-v2',
        input: 'weather?',
        tools,
        tool_choice: 'required',
        parallel_tool_calls: false,
        max_output_tokens: 200,
      });
      const json = await client.responses.create({
        model: 'chat-v2',
        input: 'a city',
        text: { format: { type: 'json_schema', name: 'city', schema: parameters, strict: true } },
        max_output_tokens: 200,
      });
      const received: unknown[] = [];
      const runner = client.chat.completions.runTools(
        {
          model: 'chat-v2-pro',
          messages: [{ role: 'user', content: 'weather in Pune?' }],
          temperature: 0,
          tools: [
            {
              type: 'function' as const,
              function: {
                name: 'get_weather',
                parameters,
                function: (args: unknown) => {
                  received.push(args);
                  return { temperature: 27 };
                },
                parse: (text: string) => JSON.parse(text) as unknown,
              },
            },
          ] as never,
        },
        { maxChatCompletions: 2 },
      );
      await runner.done();
      const toolResults = runner.messages.filter((m) => m.role === 'tool').map((m) => m.content);
      ai.dispose();
      return { required: required.output, json: json.output_text, received, toolResults };
    },
    { base: random.url, caller: caller.url, parameters: PARAMETERS },
  );
  expect(errors).toEqual([]);
  expect(result.required).toHaveLength(1);
  const call = result.required[0] as { type: string; name: string; arguments: string };
  expect(call.type).toBe('function_call');
  expect(call.name).toBe('get_weather');
  const args = JSON.parse(call.arguments) as { city: unknown; unit: unknown };
  expect(Object.keys(args).sort()).toEqual(['city', 'unit']);
  expect(typeof args.city).toBe('string');
  expect(['celsius', 'fahrenheit']).toContain(args.unit);
  const city = JSON.parse(result.json) as { city: unknown; unit: unknown };
  expect(typeof city.city).toBe('string');
  expect(result.received).toEqual([
    { city: 'Pune', unit: 'celsius' },
    { city: 'Pune', unit: 'celsius' },
  ]);
  expect(result.toolResults).toEqual(['{"temperature":27}', '{"temperature":27}']);
});

test('bad input to /responses is an OpenAI-shaped 400 the SDK raises, and the next request works', async ({ page }) => {
  const errors = await openHarness(page, PAGE);
  const result = await page.evaluate(
    async ({ base }) => {
      const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
      });
      const failure = (e: { status: number; param: string; code: string }) => ({ status: e.status, param: e.param });
      const empty = await client.responses.create({ model: 'chat-v2', input: [] }).catch(failure);
      const image = await client.responses
        .create({
          model: 'chat-v2',
          input: [{ role: 'user', content: [{ type: 'input_image', image_url: 'x', detail: 'auto' }] }],
        })
        .catch(failure);
      const next = await client.responses.create({ model: 'chat-v2', input: 'hi', max_output_tokens: 4 });
      ai.dispose();
      return { empty, image, next: next.status };
    },
    { base: random.url },
  );
  expect(errors).toEqual([]);
  expect(result.empty).toEqual({ status: 400, param: 'input' });
  expect(result.image).toEqual({ status: 400, param: 'input[0].content[0].type' });
  expect(['completed', 'incomplete']).toContain(result.next);
});

test('client.responses.inputItems.list: a chained response lists the earlier inputs and outputs, newest first, page by page', async ({
  page,
}) => {
  const errors = await openHarness(page, PAGE);
  const result = await page.evaluate(
    async ({ base, parameters }) => {
      const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
      });
      const tools = [{ type: 'function' as const, name: 'get_weather', parameters, strict: true }];
      const body = { model: 'chat-v2', tools, temperature: 0 };
      const first = await client.responses.create({ ...body, input: 'पुणे में मौसम कैसा है?' });
      const call = first.output[0] as { call_id: string };
      const second = await client.responses.create({
        ...body,
        input: [{ type: 'function_call_output', call_id: call.call_id, output: '{"temperature": 27}' }],
        previous_response_id: first.id,
      });
      const newest = await client.responses.inputItems.list(second.id);
      const pages = [];
      let current = await client.responses.inputItems.list(second.id, { order: 'asc', limit: 2 });
      for (;;) {
        pages.push(current.data.map((item) => item.id));
        if (!current.hasNextPage()) break;
        current = await current.getNextPage();
      }
      const missing = await client.responses.inputItems.list('resp_missing').catch((e: { status: number }) => e.status);
      ai.dispose();
      return { first, second: second.id, newest: newest.data, pages, missing };
    },
    { base: caller.url, parameters: PARAMETERS },
  );
  expect(errors).toEqual([]);
  const { first, newest, pages, missing } = result;
  expect(newest.map((item) => item.type)).toEqual(['function_call_output', 'function_call', 'message']);
  expect(newest[2]).toMatchObject({
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: 'पुणे में मौसम कैसा है?' }],
  });
  expect(newest[1]).toEqual(first.output[0]);
  expect(newest[0]).toMatchObject({ type: 'function_call_output', output: '{"temperature": 27}' });
  expect(pages).toEqual([[newest[2]!.id, newest[1]!.id], [newest[0]!.id]]);
  expect(missing).toBe(404);
});
