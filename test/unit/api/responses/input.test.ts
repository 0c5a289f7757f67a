import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { inputMessages, toolsOf } from '../../../../src/page/api/responses/_input';
import { responsesSchema } from '../../../../src/page/api/responses/_schema';

describe('Responses input items as chat messages', () => {
  it('a string is one user message; developer is system; text parts join', () => {
    expect(inputMessages('hi')).toEqual([{ role: 'user', content: 'hi' }]);
    expect(
      inputMessages([
        { role: 'developer', content: 'be brief' },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text: 'a' },
            { type: 'input_text', text: 'b' },
          ],
        },
      ]),
    ).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'ab' },
    ]);
  });

  it('consecutive function calls join one assistant turn; outputs become tool messages', () => {
    const messages = inputMessages([
      { role: 'user', content: 'weather?' },
      { type: 'function_call', call_id: 'c1', name: 'w', arguments: '{"city":"Pune"}' },
      { type: 'function_call', call_id: 'c2', name: 'w', arguments: '{"city":"Goa"}' },
      { type: 'function_call_output', call_id: 'c1', output: '27' },
      { type: 'function_call_output', call_id: 'c2', output: '30' },
    ]);
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'w', arguments: '{"city":"Pune"}' } },
        { id: 'c2', type: 'function', function: { name: 'w', arguments: '{"city":"Goa"}' } },
      ],
    });
    expect(messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'c1', content: '27' },
      { role: 'tool', tool_call_id: 'c2', content: '30' },
    ]);
  });

  it('a non-text part is a 400 naming it', () => {
    expect(() => inputMessages([{ role: 'user', content: [{ type: 'input_image' }] }])).toThrow(
      expect.objectContaining({ status: 400, param: 'input[0].content[0].type', code: 'unsupported_content' }),
    );
  });
});

describe('file_search tools', () => {
  const fileSearch = { type: 'file_search', vector_store_ids: ['vs_1'], max_num_results: 3 };
  const fn = { type: 'function', name: 'get_weather', parameters: { type: 'object' } };

  it('are accepted beside function tools, at most one, and never reach the chat engine as functions', () => {
    const body = v.parse(responsesSchema, { model: 'chat-v2', input: 'hi', tools: [fileSearch, fn] });
    expect(toolsOf(body)).toEqual([
      { type: 'function', function: { name: 'get_weather', parameters: { type: 'object' }, strict: null } },
    ]);
    expect(toolsOf(v.parse(responsesSchema, { model: 'chat-v2', input: 'hi', tools: [fileSearch] }))).toBeUndefined();
    expect(v.is(responsesSchema, { model: 'chat-v2', input: 'hi', tools: [fileSearch, fileSearch] })).toBe(false);
    expect(
      v.is(responsesSchema, { model: 'chat-v2', input: 'hi', tools: [{ ...fileSearch, vector_store_ids: [] }] }),
    ).toBe(false);
  });
});
