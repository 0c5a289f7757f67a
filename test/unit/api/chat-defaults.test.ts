import { describe, expect, it } from 'vitest';
import { CHAT_DEFAULTS, chatParams, type ChatRoute } from '../../../src/page/services/chat/params';
import { scriptedChat } from '../../support/chat-engine';
import { BASE, postJson, service } from './helpers';

const say = [{ role: 'user', content: 'hi' }];

/** Each chat-model route with a request that sets no sampling field. */
const ROUTES: [ChatRoute, string, object][] = [
  ['chat', '/chat/completions', { model: 'chat-v2', messages: say }],
  ['completions', '/completions', { model: 'chat-v2', prompt: 'Once' }],
  ['responses', '/responses', { model: 'chat-v2', input: 'hi', store: false }],
  ['agents', '/agents/run', { model: 'chat-v2', input: 'hi' }],
  ['code', '/code/completions', { model: 'code-v1', prompt: 'x = ', mode: 'explain' }],
];

describe('one table of chat defaults', () => {
  it("is the spec's temperature 0.7 and top_p 1 on every chat route; code completion samples at 0.2", () => {
    for (const [route, defaults] of Object.entries(CHAT_DEFAULTS))
      expect(defaults, route).toEqual({
        temperature: route === 'code' ? 0.2 : 0.7,
        top_p: 1,
        presence_penalty: 0,
        frequency_penalty: 0,
      });
  });

  it.each(ROUTES)('%s: a request without sampling fields runs with its row of the table', async (route, path, body) => {
    const { factory, seen } = scriptedChat(['ok'], { models: ['chat-v2', 'code-v1'] });
    const res = await service({}, [factory]).fetch(`${BASE}${path}`, postJson(body));
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const { temperature, top_p, presence_penalty, frequency_penalty } = seen[0]!;
    expect({ temperature, top_p, presence_penalty, frequency_penalty }).toEqual(CHAT_DEFAULTS[route]);
  });

  it('a null field takes the default; a set one is kept', async () => {
    const { factory, seen } = scriptedChat(['ok']);
    const ai = service({}, [factory]);
    await ai.fetch(`${BASE}/completions`, postJson({ model: 'chat-v2', prompt: 'a', temperature: null, top_p: null }));
    await ai.fetch(`${BASE}/chat/completions`, postJson({ model: 'chat-v2', messages: say, temperature: 0 }));
    expect(seen.map((p) => [p.temperature, p.top_p])).toEqual([
      [CHAT_DEFAULTS.completions.temperature, 1],
      [0, 1],
    ]);
  });
});

describe('chatParams', () => {
  it('developer is system, parts are text, instructions go first, stop is a list, tool_choice none sends no tools', () => {
    const tool = { type: 'function' as const, function: { name: 'f' } };
    const params = chatParams({
      model: 'chat-v2',
      instructions: 'Be brief.',
      messages: [
        { role: 'developer', content: 'Rules.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
      ],
      stop: 'END',
      tools: [tool],
      tool_choice: 'none',
    });
    expect(params).toEqual({
      model: 'chat-v2',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'system', content: 'Rules.' },
        { role: 'user', content: 'ab' },
      ],
      ...CHAT_DEFAULTS.chat,
      stop: ['END'],
      tool_choice: 'none',
    });
    expect(chatParams({ model: 'm', tools: [tool], tool_choice: 'auto' }).tools).toEqual([tool]);
  });

  it('a strict schema the grammar cannot enforce is a 400 naming it', () => {
    const schema = { type: 'object', properties: { a: { type: 'string', pattern: '^x' } }, required: ['a'] };
    expect(() =>
      chatParams({
        model: 'm',
        response_format: { type: 'json_schema', json_schema: { name: 'x', schema, strict: true } },
      }),
    ).toThrow(expect.objectContaining({ kind: 'invalid_input', code: 'unsupported_schema' }));
  });
});
