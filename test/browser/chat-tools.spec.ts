import { expect, test } from '@playwright/test';
import { ensureDecoderFixture, type FixtureLocation } from '../fixtures/llm/fixture-dir';
import { tinyLlama } from '../fixtures/llm/spec';
import { openHarness } from './support/page';

const PAGE = '/test/browser/pages/chat.html';
const CALL = '{"name": "get_weather", "arguments": {"city": "Pune", "unit": "celsius"}}';
const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather in a city',
      parameters: {
        type: 'object',
        properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
        required: ['city'],
      },
    },
  },
];
const MESSAGES = [{ role: 'user', content: 'पुणे में मौसम कैसा है?' }];

/** A tiny Llama-layout model whose greedy answer to any ChatML prompt is one Hermes tool call (see `scripted`). */
let caller: FixtureLocation;

test.beforeAll(async () => {
  caller = await ensureDecoderFixture('tiny-tool-caller', {
    ...tinyLlama,
    dtypes: ['fp32'],
    seed: 7,
    scripted: { chain: ['Ċ', '<tool_call>', CALL, '</tool_call>', '<|im_end|>'], addedTokens: [CALL] },
  });
});

test('a tool call the model writes comes back as tool_calls through the openai SDK, whole and streamed', async ({
  page,
}) => {
  const errors = await openHarness(page, PAGE);
  const result = await page.evaluate(
    async ({ base, tools, messages }) => {
      const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
        maxRetries: 0,
      });
      const body = { model: 'chat-v2', messages: messages as never, tools: tools as never, temperature: 0 };
      const whole = await client.chat.completions.create(body);
      const chunks = [];
      for await (const chunk of await client.chat.completions.create({ ...body, stream: true })) chunks.push(chunk);
      const helper = await client.chat.completions.stream(body).finalChatCompletion();
      const call = whole.choices[0]!.message.tool_calls![0]!;
      const followUp = await client.chat.completions.create({
        ...body,
        messages: [
          ...messages,
          whole.choices[0]!.message,
          { role: 'tool', tool_call_id: call.id, content: '{"temperature": 27}' },
        ] as never,
      });
      const none = await client.chat.completions.create({ ...body, tool_choice: 'none' });
      ai.dispose();
      return { whole, chunks, helper, followUp, none };
    },
    { base: caller.url, tools: TOOLS, messages: MESSAGES },
  );
  expect(errors).toEqual([]);

  const { whole, chunks, helper, followUp, none } = result;
  const expected = { name: 'get_weather', arguments: { city: 'Pune', unit: 'celsius' } };
  const message = whole.choices[0]!.message;
  expect(whole.choices[0]!.finish_reason).toBe('tool_calls');
  expect(message.content).toBeNull();
  expect(message.tool_calls).toHaveLength(1);
  const [call] = message.tool_calls! as { id: string; type: string; function: { name: string; arguments: string } }[];
  expect(call!.id).toMatch(/^call_[0-9a-f]{24}$/);
  expect(call!.type).toBe('function');
  expect({ name: call!.function.name, arguments: JSON.parse(call!.function.arguments) }).toEqual(expected);
  expect(whole.usage!.completion_tokens).toBe(3); // <tool_call>, the call, </tool_call>; the end token is not counted

  const deltas = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
  expect(deltas[0]).toMatchObject({
    index: 0,
    id: expect.stringMatching(/^call_/),
    type: 'function',
    function: { name: 'get_weather' },
  });
  expect(JSON.parse(deltas.map((delta) => delta.function?.arguments ?? '').join(''))).toEqual(expected.arguments);
  expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('');
  expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('tool_calls');

  const helperCall = (helper.choices[0]!.message.tool_calls as { function: { name: string; arguments: string } }[])[0]!;
  expect({ name: helperCall.function.name, arguments: JSON.parse(helperCall.function.arguments) }).toEqual(expected);

  expect(followUp.choices[0]!.finish_reason).toBe('tool_calls');
  expect(followUp.usage!.prompt_tokens).toBeGreaterThan(whole.usage!.prompt_tokens);

  expect(none.choices[0]!.finish_reason).toBe('stop');
  expect(none.choices[0]!.message.tool_calls ?? []).toEqual([]);
  expect(none.choices[0]!.message.content).toBe(`<tool_call>${CALL}</tool_call>`);
  expect(none.usage!.prompt_tokens).toBeLessThan(whole.usage!.prompt_tokens);
});
