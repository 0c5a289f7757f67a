import { expect, test } from '@playwright/test';
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
/** No part of the tool-call markup (an open or close tag, or the call's JSON head) may reach text. */
const MARKUP = /<\/?tool_call|"name":/;

/** Writes `<tool_call>`, the call (one token), `</tool_call>` to any ChatML prompt. */
let caller: FixtureLocation;
/** Random weights: a forced call needs many tokens. */
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

test('a forced call that max_tokens cuts: chat finish_reason length with no markup, Responses and agents incomplete (max_output_tokens), whole and streamed', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const errors = await openHarness(page, PAGE);
  const result = await page.evaluate(
    async ({ base, schema }) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: { 'chat-v2': { baseURL: base }, 'agent-v1': { baseURL: base } },
      });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
      });
      const chatTools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: schema } }];
      const chat = [];
      for (const tool_choice of ['required', { type: 'function', function: { name: 'get_weather' } }] as const) {
        const body = {
          model: 'chat-v2',
          messages: [{ role: 'user' as const, content: 'weather?' }],
          tools: chatTools,
          tool_choice,
          max_tokens: 5,
          seed: 1,
        };
        const whole = await client.chat.completions.create(body);
        const chunks = [];
        for await (const chunk of await client.chat.completions.create({ ...body, stream: true })) chunks.push(chunk);
        chat.push({
          message: whole.choices[0]!.message,
          finish: whole.choices[0]!.finish_reason,
          tokens: whole.usage!.completion_tokens,
          deltas: chunks.map((chunk) => chunk.choices[0]?.delta ?? {}),
          streamedFinish: chunks.at(-1)!.choices[0]!.finish_reason,
        });
      }

      const responseBody = {
        model: 'chat-v2',
        input: 'weather?',
        tools: [{ type: 'function' as const, name: 'get_weather', parameters: schema, strict: true }],
        tool_choice: 'required' as const,
        max_output_tokens: 5,
      };
      const response = await client.responses.create(responseBody);
      const events = [];
      for await (const event of await client.responses.create({ ...responseBody, stream: true })) events.push(event);

      ai.tools.register({ name: 'get_weather', inputSchema: schema, execute: () => 'sunny', needsApproval: false });
      const post = async (body: object) =>
        ai.fetch(`${ai.baseURL}/agents/run`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
          body: JSON.stringify({
            model: 'agent-v1',
            input: 'weather?',
            tools: ['get_weather'],
            tool_choice: 'required',
            max_tokens: 5,
            seed: 1,
            ...body,
          }),
        });
      const run = await (await post({})).json();
      const streamedRun = await (await post({ stream: true })).text();
      ai.dispose();
      return { chat, response, events, run, streamedRun };
    },
    { base: random.url, schema: SCHEMA },
  );
  expect(errors).toEqual([]);

  for (const answer of result.chat) {
    expect(answer.tokens).toBe(5);
    expect(answer.finish).toBe('length');
    expect(answer.message.tool_calls ?? []).toEqual([]);
    expect(answer.message.content ?? '').not.toMatch(MARKUP);
    expect(answer.streamedFinish).toBe('length');
    for (const delta of answer.deltas) {
      expect(delta.content ?? '').not.toMatch(MARKUP);
      expect(delta.tool_calls).toBeUndefined();
    }
  }

  expect(result.response.status).toBe('incomplete');
  expect(result.response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
  expect(result.response.output.filter((item) => item.type === 'function_call')).toEqual([]);
  expect(result.response.output_text).not.toMatch(MARKUP);
  expect(result.events.at(-1)!.type).toBe('response.incomplete');
  for (const event of result.events)
    if (event.type === 'response.output_text.delta') expect(event.delta).not.toMatch(MARKUP);

  expect(result.run).toMatchObject({
    status: 'incomplete',
    incomplete_details: { reason: 'max_output_tokens' },
    steps: [{ finish_reason: 'length', tool_calls: [] }],
  });
  expect(result.run.output_text).not.toMatch(MARKUP);
  const streamedRun = result.streamedRun.split('\n');
  expect(streamedRun.filter((line) => line.startsWith('data: {') && line.includes('message.delta'))).toEqual(
    streamedRun.filter((line) => line.startsWith('data: {') && line.includes('message.delta') && !MARKUP.test(line)),
  );
  const completed = streamedRun.find((line) => line.startsWith('data: {"type":"run.completed"'));
  expect(JSON.parse(completed!.slice('data: '.length)).run).toMatchObject({
    status: 'incomplete',
    incomplete_details: { reason: 'max_output_tokens' },
  });
});

test('a call the model opens under tool_choice auto and max_tokens cuts never reaches text, whole and streamed', async ({
  page,
}) => {
  const errors = await openHarness(page, PAGE);
  const result = await page.evaluate(
    async ({ base, schema }) => {
      const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
      });
      const body = {
        model: 'chat-v2',
        messages: [{ role: 'user' as const, content: 'weather?' }],
        tools: [{ type: 'function' as const, function: { name: 'get_weather', parameters: schema } }],
        temperature: 0,
      };
      // One token: `<tool_call>`, then the budget is spent.
      const cut = await client.chat.completions.create({ ...body, max_tokens: 1 });
      const chunks = [];
      for await (const chunk of await client.chat.completions.create({ ...body, max_tokens: 1, stream: true }))
        chunks.push(chunk);
      const response = await client.responses.create({
        model: 'chat-v2',
        input: 'weather?',
        tools: [{ type: 'function' as const, name: 'get_weather', parameters: schema, strict: true }],
        max_output_tokens: 1,
      });
      ai.dispose();
      return { cut, chunks, response };
    },
    { base: caller.url, schema: SCHEMA },
  );
  expect(errors).toEqual([]);
  expect(result.cut.choices[0]!.finish_reason).toBe('length');
  expect(result.cut.choices[0]!.message.content).toBe('');
  expect(result.cut.choices[0]!.message.tool_calls ?? []).toEqual([]);
  expect(result.chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('');
  expect(result.chunks.at(-1)!.choices[0]!.finish_reason).toBe('length');
  expect(result.response.status).toBe('incomplete');
  expect(result.response.output).toEqual([]);
});
