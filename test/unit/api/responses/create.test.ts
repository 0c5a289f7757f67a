import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { EngineError } from '../../../../src/protocol/errors';
import { scriptedChat } from '../../../support/chat-engine';
import { BASE, postJson, service } from '../helpers';

const call = (name: string, index = 0) => ({
  tool_calls: [{ index, id: `call_${index}`, type: 'function' as const, function: { name } }],
});
const args = (value: string, index = 0) => ({ tool_calls: [{ index, function: { arguments: value } }] });

function client(pieces: Parameters<typeof scriptedChat>[0], finish?: 'stop' | 'tool_calls' | 'length') {
  const { factory, seen } = scriptedChat(pieces, { finish });
  const ai = service({}, [factory]);
  return { ai, seen, openai: new OpenAI({ baseURL: BASE, apiKey: 'k', fetch: ai.fetch }) };
}

describe('POST /responses', () => {
  it('answers client.responses.create: instructions as system, output_text, usage, stored for previous_response_id', async () => {
    const { openai, seen } = client(['नमस्', 'ते']);
    const first = await openai.responses.create({ model: 'chat-v2', input: 'hi', instructions: 'Reply in Hindi.' });
    expect(first).toMatchObject({
      object: 'response',
      status: 'completed',
      model: 'chat-v2',
      output: [
        { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'नमस्ते' }] },
      ],
      usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
    });
    expect(first.id).toMatch(/^resp_/);
    expect(first.output_text).toBe('नमस्ते');
    expect(seen[0]!.messages).toEqual([
      { role: 'system', content: 'Reply in Hindi.' },
      { role: 'user', content: 'hi' },
    ]);
    expect(seen[0]!.temperature).toBe(0.7);

    await openai.responses.create({ model: 'chat-v2', input: 'again', previous_response_id: first.id });
    expect(seen[1]!.messages).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'नमस्ते' },
      { role: 'user', content: 'again' },
    ]);
    expect((await openai.responses.retrieve(first.id)).id).toBe(first.id);
  });

  it('function calls come back as function_call items with call_id; tools and text.format reach the engine', async () => {
    const { openai, seen } = client([call('get_weather'), args('{"city":'), args('"Pune"}')], 'tool_calls');
    const tools = [
      {
        type: 'function' as const,
        name: 'get_weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        strict: false,
      },
    ];
    const response = await openai.responses.create({
      model: 'chat-v2',
      input: 'weather?',
      tools,
      tool_choice: 'required',
    });
    expect(response.output).toEqual([
      {
        id: expect.stringMatching(/^fc_/),
        type: 'function_call',
        status: 'completed',
        call_id: 'call_0',
        name: 'get_weather',
        arguments: '{"city":"Pune"}',
      },
    ]);
    expect(seen[0]).toMatchObject({
      tool_choice: 'required',
      tools: [{ type: 'function', function: { name: 'get_weather', strict: false } }],
    });
  });

  it('streams OpenAI event names in order with sequence numbers, and the SDK reads them', async () => {
    const { openai } = client(['Hi', ' there', call('f'), args('{}')], 'tool_calls');
    const events = [];
    for await (const event of await openai.responses.create({ model: 'chat-v2', input: 'x', stream: true }))
      events.push(event);
    expect(events.map((event) => event.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, i) => i));
    const completed = events.at(-1) as { response: { output: { type: string }[] } };
    expect(completed.response.output.map((item) => item.type)).toEqual(['message', 'function_call']);
  });

  it('the stream names each event; max_output_tokens reached is status incomplete', async () => {
    const { ai } = client(['a'], 'length');
    const res = await ai.fetch(
      `${BASE}/responses`,
      postJson({ model: 'chat-v2', input: 'x', stream: true, max_output_tokens: 1 }),
    );
    const text = await res.text();
    expect(text.startsWith('event: response.created\ndata: {')).toBe(true);
    expect(text).toContain('event: response.incomplete\n');
    expect(text).toContain('"incomplete_details":{"reason":"max_output_tokens"}');
  });

  it('400s for bad input, 404 for an unknown previous_response_id; the next request works', async () => {
    const { ai } = client(['ok']);
    const error = async (body: object) => {
      const res = await ai.fetch(`${BASE}/responses`, postJson({ model: 'chat-v2', input: 'x', ...body }));
      return { status: res.status, ...(await res.json()).error };
    };
    expect(await error({ input: [] })).toMatchObject({ status: 400, param: 'input' });
    expect(await error({ input: [{ role: 'robot', content: 'x' }] })).toMatchObject({ status: 400 });
    expect(await error({ tools: [{ type: 'web_search' }] })).toMatchObject({ status: 400 });
    expect(await error({ temperature: 3 })).toMatchObject({ status: 400, param: 'temperature' });
    expect(await error({ model: 'speech-tts-v1' })).toMatchObject({ status: 400, code: 'model_not_supported' });
    expect(await error({ previous_response_id: 'resp_nope' })).toMatchObject({
      status: 404,
      param: 'previous_response_id',
      code: 'previous_response_not_found',
    });
    const res = await ai.fetch(`${BASE}/responses`, postJson({ model: 'chat-v2', input: 'x' }));
    expect(res.status).toBe(200);
  });
});

describe('POST /responses: schema errors name the Responses fields', () => {
  it('text.format.schema for a strict format the grammar cannot enforce, tools[i].parameters for a tool schema the engine refuses', async () => {
    const { factory } = scriptedChat(['ok'], {
      failBeforeOutput: new EngineError(
        'invalid_input',
        'The grammar for tools[1].function.parameters could not be compiled: Empty character class is not allowed in regex.',
        'unsupported_schema',
        'tools[1].function.parameters',
      ),
    });
    const ai = service({}, [factory]);
    const error = async (body: object) => {
      const res = await ai.fetch(`${BASE}/responses`, postJson({ model: 'chat-v2', input: 'x', ...body }));
      return { status: res.status, ...(await res.json()).error };
    };
    const schema = {
      type: 'object',
      properties: { n: { type: 'integer', multipleOf: 2 } },
      required: ['n'],
      additionalProperties: false,
    };
    const format = await error({ text: { format: { type: 'json_schema', name: 'n', schema, strict: true } } });
    expect(format).toMatchObject({ status: 400, code: 'unsupported_schema', param: 'text.format.schema' });
    expect(format.message).toContain('Invalid schema for text.format.schema:');
    const fn = (name: string) => ({ type: 'function', name, parameters: { type: 'object', properties: {} } });
    const tool = await error({ tools: [fn('a'), fn('b')] });
    expect(tool).toMatchObject({ status: 400, code: 'unsupported_schema', param: 'tools[1].parameters' });
    expect(tool.message).toContain('The grammar for tools[1].parameters could not be compiled');
  });
});

describe('POST /responses: output items sent back as input', () => {
  it('accepts a previous output (message and function_call items with ids and status) followed by the call output', async () => {
    const { openai, seen } = client([call('get_weather'), args('{"city":"Pune"}')], 'tool_calls');
    const first = await openai.responses.create({ model: 'chat-v2', input: 'weather?' });
    await openai.responses.create({
      model: 'chat-v2',
      input: [
        { role: 'user', content: 'weather?' },
        ...(first.output as never[]),
        { type: 'function_call_output', call_id: 'call_0', output: '27' },
      ],
    });
    expect(seen[1]!.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Pune"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_0', content: '27' },
    ]);
  });
});
