import { expect, test } from '@playwright/test';
import { ensureDecoderFixture, type FixtureLocation } from '../fixtures/llm/fixture-dir';
import { tinyQwen2 } from '../fixtures/llm/spec';
import { openHarness } from './support/page';

const PAGE = '/test/browser/pages/structured.html';
const UPSTREAM = '/shared/fixtures/tiny-random-llama-fp16-genai/';

/** Runs on models with random weights: whatever they write, the grammar must make it valid. */
async function structuredAnswers(page: import('@playwright/test').Page, base: string, seeds: number[]) {
  return page.evaluate(
    async ({ base, seeds }) => {
      const { z, zodResponseFormat, zodFunction, Ajv } = window.structured;
      const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
      // Default retries: a structured request must never need one.
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
      });
      const Person = z.object({
        name: z.string(),
        age: z.number().int(),
        city: z.enum(['Pune', 'Chennai', 'Kolkata']),
        tags: z.array(z.string()),
      });
      const format = zodResponseFormat(Person, 'person');
      const validPerson = new Ajv().compile(format.json_schema.schema!);
      const messages = [{ role: 'user' as const, content: 'Describe a person as JSON.' }];
      const base0 = { model: 'chat-v2', messages, temperature: 1, max_tokens: 80 };

      const parsed = [];
      for (const seed of seeds) {
        const whole = await client.chat.completions.parse({ ...base0, seed, response_format: format });
        const streamed = await client.chat.completions
          .stream({ ...base0, seed, response_format: format })
          .finalChatCompletion();
        parsed.push(
          ...[whole, streamed].map((completion) => ({
            finish: completion.choices[0]!.finish_reason,
            content: completion.choices[0]!.message.content,
            parsed: completion.choices[0]!.message.parsed,
            valid: validPerson(completion.choices[0]!.message.parsed),
          })),
        );
      }

      const object = await client.chat.completions.create({
        ...base0,
        seed: 9,
        response_format: { type: 'json_object' },
      });

      const weather = zodFunction({
        name: 'get_weather',
        parameters: z.object({ city: z.string(), unit: z.enum(['celsius', 'fahrenheit']) }),
      });
      const time = zodFunction({ name: 'get_time', parameters: z.object({ zone: z.string(), hour24: z.boolean() }) });
      const validArgs = {
        get_weather: new Ajv().compile(weather.function.parameters!),
        get_time: new Ajv().compile(time.function.parameters!),
      };
      const calls = [];
      for (const [seed, tool_choice, parallel_tool_calls] of [
        [1, 'required', false],
        [2, 'required', true],
        [3, { type: 'function', function: { name: 'get_time' } }, true],
        [4, { type: 'function', function: { name: 'get_weather' } }, false],
      ] as const) {
        const body = { ...base0, seed, tools: [weather, time], tool_choice, parallel_tool_calls, max_tokens: 120 };
        const whole = await client.chat.completions.parse(body);
        const streamed = seed === 3 ? [await client.chat.completions.stream(body).finalChatCompletion()] : [];
        for (const completion of [whole, ...streamed]) {
          const message = completion.choices[0]!.message;
          calls.push({
            choice: tool_choice,
            parallel: parallel_tool_calls,
            finish: completion.choices[0]!.finish_reason,
            calls: (message.tool_calls ?? []).map((call) => {
              const fn = (call as { function: { name: 'get_weather' | 'get_time'; parsed_arguments: unknown } })
                .function;
              return { name: fn.name, valid: validArgs[fn.name]?.(fn.parsed_arguments) ?? false };
            }),
          });
        }
      }
      ai.dispose();
      return { parsed, object: object.choices[0]!.message.content, calls };
    },
    { base, seeds },
  );
}

function expectStructured(result: Awaited<ReturnType<typeof structuredAnswers>>) {
  for (const answer of result.parsed) {
    expect(answer.finish, answer.content ?? '').toBe('stop');
    expect(answer.valid, answer.content ?? '').toBe(true);
  }
  const object: unknown = JSON.parse(result.object!);
  expect(typeof object === 'object' && object !== null && !Array.isArray(object)).toBe(true);
  for (const answer of result.calls) {
    expect(answer.finish).toBe('tool_calls');
    expect(answer.calls.length).toBeGreaterThan(0);
    if (!answer.parallel) expect(answer.calls).toHaveLength(1);
    for (const call of answer.calls) {
      expect(call.valid).toBe(true);
      if (typeof answer.choice === 'object') expect(call.name).toBe(answer.choice.function.name);
    }
  }
}

test('structured outputs on the upstream export (random weights): parse() with a strict schema, json_object, required and named tool calls, whole and streamed', async ({
  page,
}) => {
  test.setTimeout(600_000);
  const errors = await openHarness(page, PAGE);
  const result = await structuredAnswers(page, UPSTREAM, [1, 2, 3]);
  expect(errors).toEqual([]);
  expectStructured(result);
});

let qwen: FixtureLocation;
test.beforeAll(async () => {
  qwen = await ensureDecoderFixture('tiny-qwen2', tinyQwen2);
});

test('structured outputs on a generated byte-level ChatML model (Hermes tool syntax from its template)', async ({
  page,
}) => {
  test.setTimeout(600_000);
  const errors = await openHarness(page, PAGE);
  const result = await structuredAnswers(page, qwen.url, [4, 5]);
  expect(errors).toEqual([]);
  expectStructured(result);
});

test('a strict schema with keywords the grammar cannot enforce is a 400 naming them, sent once by an SDK with default retries', async ({
  page,
}) => {
  const errors = await openHarness(page, PAGE);
  const result = await page.evaluate(async (base) => {
    const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
    let sent = 0;
    const client = new window.OpenAI({
      baseURL: ai.baseURL,
      apiKey: 'k',
      dangerouslyAllowBrowser: true,
      fetch: (url, init) => {
        sent++;
        return ai.fetch(url, init);
      },
    });
    const schema = {
      type: 'object',
      properties: { ids: { type: 'array', items: { type: 'integer', multipleOf: 2 }, uniqueItems: true } },
      required: ['ids'],
      additionalProperties: false,
    };
    const error = await client.chat.completions
      .create({
        model: 'chat-v2',
        messages: [{ role: 'user', content: 'ids' }],
        response_format: { type: 'json_schema', json_schema: { name: 'ids', schema, strict: true } },
      })
      .then(
        () => undefined,
        (e: { status: number; code: string; param: string; message: string }) => ({ ...e, message: e.message }),
      );
    const next = await client.chat.completions.create({
      model: 'chat-v2',
      messages: [{ role: 'user', content: 'ids' }],
      max_tokens: 40,
      response_format: { type: 'json_schema', json_schema: { name: 'ids', schema, strict: false } },
    });
    ai.dispose();
    return { error, sent, next: next.choices[0]!.message.content };
  }, UPSTREAM);
  expect(errors).toEqual([]);
  expect(result.error).toMatchObject({
    status: 400,
    code: 'unsupported_schema',
    param: 'response_format.json_schema.schema',
  });
  expect(result.error!.message).toContain("'multipleOf' at #/properties/ids/items");
  expect(result.error!.message).toContain("'uniqueItems' at #/properties/ids");
  expect(result.sent).toBe(2);
  expect(Array.isArray(JSON.parse(result.next!).ids)).toBe(true);
});
