import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { Ajv } from 'ajv';
import { ensureDecoderFixture, type FixtureLocation } from '../fixtures/llm/fixture-dir';
import { tinyQwen2 } from '../fixtures/llm/spec';
import { openHarness } from './support/page';

const PAGE = '/test/browser/pages/structured.html';
const WEATHER = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
  required: ['city', 'unit'],
  additionalProperties: false,
};
const TIME = {
  type: 'object',
  properties: { zone: { type: 'string' }, hour24: { type: 'boolean' } },
  required: ['zone', 'hour24'],
  additionalProperties: false,
};
const PERSON = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    age: { type: 'integer' },
    city: { type: 'string', enum: ['Pune', 'Chennai', 'Kolkata'] },
  },
  required: ['name', 'age', 'city'],
  additionalProperties: false,
};

/** Random weights and a ChatML template that teaches Hermes tool calls (`<tool_call>` is one token). */
let random: FixtureLocation;
let ids: { open: number; brace: number };

test.beforeAll(async () => {
  random = await ensureDecoderFixture('tiny-qwen2-plain', { ...tinyQwen2, dtypes: ['fp32'] });
  const tokenizer = JSON.parse(await readFile(join(random.dir, 'tokenizer.json'), 'utf8')) as {
    model: { vocab: Record<string, number> };
    added_tokens: { id: number; content: string }[];
  };
  ids = {
    open: tokenizer.added_tokens.find((token) => token.content === '<tool_call>')!.id,
    brace: tokenizer.model.vocab['{']!,
  };
});

interface Answer {
  label: string;
  content: string | null;
  calls: { name: string; arguments: string }[];
}

/** Checks, independently of the engine, that an answer is only calls valid for their tools, or only JSON valid for `schema` (any object when absent). */
function kindOf(answer: Answer, schema?: object): 'calls' | 'json' {
  const validArgs: Record<string, (value: unknown) => boolean> = {
    get_weather: new Ajv().compile(WEATHER),
    get_time: new Ajv().compile(TIME),
  };
  const where = JSON.stringify(answer);
  if (answer.calls.length) {
    expect(answer.content ?? '', where).toBe('');
    for (const call of answer.calls) expect(validArgs[call.name]?.(JSON.parse(call.arguments)), where).toBe(true);
    return 'calls';
  }
  const value: unknown = JSON.parse(answer.content ?? '');
  if (schema) expect(new Ajv().compile(schema)(value), where).toBe(true);
  else expect(typeof value === 'object' && value !== null && !Array.isArray(value), where).toBe(true);
  return 'json';
}

test('tools with tool_choice auto and a JSON response_format on random weights: every answer is calls valid for their tool or schema-valid JSON, whole and streamed', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const errors = await openHarness(page, PAGE);
  const answers = await page.evaluate(
    async ({ base, weather, time, person, ids }) => {
      const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
      });
      const tools = [
        { type: 'function' as const, function: { name: 'get_weather', parameters: weather, strict: true } },
        { type: 'function' as const, function: { name: 'get_time', parameters: time } },
      ];
      const formats = {
        schema: { type: 'json_schema' as const, json_schema: { name: 'person', schema: person, strict: true } },
        object: { type: 'json_object' as const },
      };
      const out = [];
      for (const [seed, format, steer] of [
        [1, 'schema', undefined],
        [2, 'schema', 'open'],
        [3, 'schema', 'brace'],
        [4, 'object', undefined],
        [5, 'object', 'open'],
        [6, 'object', 'brace'],
      ] as const) {
        const body = {
          model: 'chat-v2',
          messages: [{ role: 'user' as const, content: 'Weather in Pune, or a person as JSON.' }],
          tools,
          tool_choice: 'auto' as const,
          response_format: formats[format],
          seed,
          temperature: 1,
          max_tokens: 120,
          ...(steer ? { logit_bias: { [ids[steer]]: 100 } } : {}),
        };
        const whole = await client.chat.completions.create(body);
        const chunks = [];
        for await (const chunk of await client.chat.completions.create({ ...body, stream: true })) chunks.push(chunk);
        const streamedCalls: { name: string; arguments: string }[] = [];
        for (const chunk of chunks)
          for (const part of chunk.choices[0]?.delta.tool_calls ?? []) {
            const call = (streamedCalls[part.index] ??= { name: '', arguments: '' });
            call.name += part.function?.name ?? '';
            call.arguments += part.function?.arguments ?? '';
          }
        const message = whole.choices[0]!.message;
        for (const [how, content, calls, finish] of [
          [
            'whole',
            message.content,
            (message.tool_calls ?? []).map((call) => ({
              name: (call as { function: { name: string } }).function.name,
              arguments: (call as { function: { arguments: string } }).function.arguments,
            })),
            whole.choices[0]!.finish_reason,
          ],
          [
            'streamed',
            chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''),
            streamedCalls,
            chunks.at(-1)!.choices[0]!.finish_reason,
          ],
        ] as const)
          out.push({ label: `${format} seed ${seed} ${steer ?? ''} ${how}`, format, steer, content, calls, finish });
      }
      ai.dispose();
      return out;
    },
    { base: random.url, weather: WEATHER, time: TIME, person: PERSON, ids },
  );
  expect(errors).toEqual([]);
  expect(answers).toHaveLength(12);
  for (const answer of answers) {
    const kind = kindOf(answer, answer.format === 'schema' ? PERSON : undefined);
    expect(answer.finish, answer.label).toBe(kind === 'calls' ? 'tool_calls' : 'stop');
    if (answer.steer) expect(kind, answer.label).toBe(answer.steer === 'open' ? 'calls' : 'json');
  }
});

test('Responses: function tools (auto) with text.format json_schema or json_object on random weights: calls valid for their tool or schema-valid output_text, whole and streamed', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const errors = await openHarness(page, PAGE);
  const answers = await page.evaluate(
    async ({ base, weather, time, person }) => {
      const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
      });
      const tools = [
        { type: 'function' as const, name: 'get_weather', parameters: weather, strict: true },
        { type: 'function' as const, name: 'get_time', parameters: time, strict: false },
      ];
      const formats = {
        schema: { type: 'json_schema' as const, name: 'person', schema: person, strict: true },
        object: { type: 'json_object' as const },
      };
      const out = [];
      for (const format of ['schema', 'schema', 'object', 'object'] as const) {
        const body = {
          model: 'chat-v2',
          input: 'Weather in Pune, or a person as JSON.',
          tools,
          text: { format: formats[format] },
          max_output_tokens: 120,
        };
        const whole = await client.responses.create(body);
        const streamed = await client.responses.stream(body).finalResponse();
        for (const [how, response] of [
          ['whole', whole],
          ['streamed', streamed],
        ] as const) {
          const calls = response.output.flatMap((item) =>
            item.type === 'function_call' ? [{ name: item.name, arguments: item.arguments }] : [],
          );
          out.push({
            label: `${format} ${how}`,
            format,
            status: response.status,
            types: response.output.map((item) => item.type),
            content: response.output_text,
            calls,
          });
        }
      }
      ai.dispose();
      return out;
    },
    { base: random.url, weather: WEATHER, time: TIME, person: PERSON },
  );
  expect(errors).toEqual([]);
  expect(answers).toHaveLength(8);
  for (const answer of answers) {
    const kind = kindOf(answer, answer.format === 'schema' ? PERSON : undefined);
    expect(answer.status, answer.label).toBe('completed');
    expect(new Set(answer.types), answer.label).toEqual(new Set([kind === 'calls' ? 'function_call' : 'message']));
  }
});

test("a tool schema XGrammar refuses is a 400 with XGrammar's own message naming the tool's parameters, and the next request works", async ({
  page,
}) => {
  const errors = await openHarness(page, PAGE);
  const result = await page.evaluate(
    async ({ base, weather }) => {
      const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
      });
      // An empty character class: valid JavaScript, refused by XGrammar's regex parser.
      const zone = { type: 'object', properties: { zone: { type: 'string', pattern: '^[]' } }, required: ['zone'] };
      const body = {
        model: 'chat-v2',
        messages: [{ role: 'user' as const, content: 'time?' }],
        tools: [
          { type: 'function' as const, function: { name: 'get_weather', parameters: weather } },
          { type: 'function' as const, function: { name: 'get_time', parameters: zone } },
        ],
        tool_choice: 'required' as const,
        max_tokens: 160,
      };
      const error = await client.chat.completions.create(body).then(
        () => undefined,
        (e: { status: number; code: string; param: string; message: string }) => ({
          status: e.status,
          code: e.code,
          param: e.param,
          message: e.message,
        }),
      );
      const next = await client.chat.completions.create({ ...body, tools: body.tools.slice(0, 1) });
      ai.dispose();
      return { error, next: next.choices[0]!.finish_reason };
    },
    { base: random.url, weather: WEATHER },
  );
  expect(errors).toEqual([]);
  expect(result.error).toMatchObject({
    status: 400,
    code: 'unsupported_schema',
    param: 'tools[1].function.parameters',
  });
  expect(result.error!.message).toContain('Empty character class is not allowed');
  expect(result.next).toBe('tool_calls');
});

test('many response_format schemas XGrammar refuses, each a 400 naming the param, then a valid one answers schema-valid JSON (a fresh XGrammar after each failure)', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const errors = await openHarness(page, PAGE);
  const result = await page.evaluate(
    async ({ base, person }) => {
      const ai = window.Vaani.createVaani({ backend: 'wasm', models: { 'chat-v2': { baseURL: base } } });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
      });
      const body = (name: string, schema: Record<string, unknown>) => ({
        model: 'chat-v2',
        messages: [{ role: 'user' as const, content: 'A person as JSON.' }],
        response_format: { type: 'json_schema' as const, json_schema: { name, schema, strict: true } },
        seed: 7,
        max_tokens: 120,
      });
      const refused = [];
      // 20: XGrammar's WASM broke after about 14 failures when one instance served them all.
      for (let i = 0; i < 20; i++) {
        // An empty character class: valid JavaScript, refused by XGrammar's regex parser (a failed check, an abort).
        const field = `f${i}`;
        const schema = {
          type: 'object',
          properties: { [field]: { type: 'string', pattern: '^[]' } },
          required: [field],
          additionalProperties: false,
        };
        refused.push(
          await client.chat.completions.create(body(`bad${i}`, schema)).then(
            () => ({ status: 200, code: '', param: '', message: '' }),
            (e: { status: number; code: string; param: string; message: string }) => ({
              status: e.status,
              code: e.code,
              param: e.param,
              message: e.message,
            }),
          ),
        );
      }
      const next = await client.chat.completions.create(body('person', person));
      ai.dispose();
      return { refused, finish: next.choices[0]!.finish_reason, content: next.choices[0]!.message.content };
    },
    { base: random.url, person: PERSON },
  );
  expect(errors).toEqual([]);
  result.refused.forEach((error, i) => {
    expect(error, `refused schema ${i}`).toMatchObject({
      status: 400,
      code: 'unsupported_schema',
      param: 'response_format.json_schema.schema',
    });
    expect(error.message, `refused schema ${i}`).toContain('Empty character class is not allowed');
  });
  expect(result.finish).toBe('stop');
  expect(new Ajv().compile(PERSON)(JSON.parse(result.content!)), result.content!).toBe(true);
});
