import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { parse } from '../../../src/page/api/http/body';
import type { ApiError } from '../../../src/page/api/http/errors';
import { BASE, postJson, service } from './helpers';

async function error(res: Response) {
  return { status: res.status, ...(await res.json()).error };
}

describe('fields documented as objects', () => {
  it('parse() refuses an array wherever the schema has an object, at any depth, naming the field', () => {
    const leaf = v.object({ a: v.optional(v.string()) });
    const schema = v.object({
      plain: v.optional(leaf),
      loose: v.optional(v.nullable(v.looseObject({}))),
      strict: v.optional(v.strictObject({})),
      record: v.optional(v.record(v.string(), v.string())),
      piped: v.optional(
        v.pipe(
          leaf,
          v.check(() => true),
        ),
      ),
      list: v.optional(v.array(leaf)),
      either: v.optional(v.union([v.string(), leaf])),
      kind: v.optional(v.variant('type', [v.object({ type: v.literal('x') })])),
      tree: v.optional(v.lazy(() => v.object({ child: v.optional(leaf) }))),
    });
    expect(parse(schema, { plain: {}, loose: null, record: { k: 'v' }, list: [{ a: 'b' }] })).toMatchObject({
      plain: {},
      record: { k: 'v' },
    });
    const refused = (input: unknown) => {
      try {
        parse(schema, input);
      } catch (error) {
        return { param: (error as ApiError).param, code: (error as ApiError).code };
      }
      return undefined;
    };
    expect(refused([])).toEqual({ param: null, code: 'invalid_type' });
    for (const [input, param] of [
      [{ plain: [] }, 'plain'],
      [{ loose: [] }, 'loose'],
      [{ strict: [] }, 'strict'],
      [{ record: ['a'] }, 'record'],
      [{ piped: [] }, 'piped'],
      [{ list: [[]] }, 'list[0]'],
      [{ kind: [] }, 'kind'],
      [{ tree: [] }, 'tree'],
      [{ tree: { child: [] } }, 'tree.child'],
    ] as const)
      expect(refused(input), JSON.stringify(input)).toEqual({ param, code: 'invalid_type' });
    expect(refused({ either: [] })?.param).toBe('either');
  });

  const ai = service();
  const wrongType = (param: string | null) => ({ status: 400, code: 'invalid_type', param });

  it('memory: an array scope or metadata is 400 invalid_type naming the field, at the top and in items', async () => {
    const store = (body: unknown) => ai.fetch(`${BASE}/memory/store`, postJson(body));
    expect(await error(await store({ text: 'chai', scope: ['asha'] }))).toMatchObject(wrongType('scope'));
    expect(await error(await store({ text: 'chai', metadata: ['rail'] }))).toMatchObject(wrongType('metadata'));
    expect(await error(await store({ items: [{ text: 'chai', scope: ['asha'] }] }))).toMatchObject(
      wrongType('items[0].scope'),
    );
    const search = await ai.fetch(`${BASE}/memory/search`, postJson({ query: 'chai', scope: ['asha'] }));
    expect(await error(search)).toMatchObject(wrongType('scope'));
  });

  it('vector store files: array attributes are 400 invalid_type', async () => {
    const res = await ai.fetch(
      `${BASE}/vector_stores/vs_1/files`,
      postJson({ file_id: 'file-1', attributes: ['rail'] }),
    );
    expect(await error(res)).toMatchObject(wrongType('attributes'));
  });

  it('chat, responses and agents: array schemas, logit_bias and metadata are 400 invalid_type', async () => {
    const messages = [{ role: 'user', content: 'hi' }];
    const chat = (extra: object) =>
      ai.fetch(`${BASE}/chat/completions`, postJson({ model: 'chat-v2', messages, ...extra }));
    expect(await error(await chat({ logit_bias: [1] }))).toMatchObject(wrongType('logit_bias'));
    const tools = [{ type: 'function', function: { name: 'f', parameters: ['x'] } }];
    expect(await error(await chat({ tools }))).toMatchObject(wrongType('tools[0].function.parameters'));
    const responses = await ai.fetch(
      `${BASE}/responses`,
      postJson({ model: 'chat-v2', input: 'hi', metadata: ['rail'] }),
    );
    expect(await error(responses)).toMatchObject(wrongType('metadata'));
  });

  it('every route: an array for an object-typed field (or for the whole body) is 400 invalid_type naming it', async () => {
    const post = async (path: string, body: unknown) => error(await ai.fetch(`${BASE}${path}`, postJson(body)));
    const chat = { model: 'chat-v2', messages: [{ role: 'user', content: 'hi' }] };
    const responses = { model: 'chat-v2', input: 'hi' };
    const cases: [string, unknown, string | null][] = [
      ['/chat/completions', [], null],
      ['/chat/completions', { ...chat, stream: true, stream_options: [] }, 'stream_options'],
      ['/chat/completions', { ...chat, chat_template_kwargs: [] }, 'chat_template_kwargs'],
      ['/chat/completions', { ...chat, response_format: [] }, 'response_format'],
      [
        '/chat/completions',
        { ...chat, response_format: { type: 'json_schema', json_schema: [] } },
        'response_format.json_schema',
      ],
      ['/chat/completions', { ...chat, messages: [[]] }, 'messages[0]'],
      ['/chat/completions', { ...chat, tools: [{ type: 'function', function: [] }] }, 'tools[0].function'],
      ['/chat/completions', { ...chat, tool_choice: { type: 'function', function: [] } }, 'tool_choice'],
      ['/completions', { model: 'chat-v2', prompt: 'hi', stream: true, stream_options: [] }, 'stream_options'],
      ['/responses', { ...responses, text: [] }, 'text'],
      ['/responses', { ...responses, text: { format: [] } }, 'text.format'],
      ['/responses', { ...responses, reasoning: [] }, 'reasoning'],
      ['/responses', { ...responses, tools: [[]] }, 'tools[0]'],
      ['/agents/run', { input: 'hi', tools: [[]] }, 'tools[0]'],
      ['/agents/run', { input: 'hi', tool_choice: { type: 'function', function: [] } }, 'tool_choice'],
      ['/memory/store', { items: [[]] }, 'items[0]'],
      ['/memory/search', { query: 'chai', filters: [] }, 'filters'],
      ['/vector_stores', { name: 's', expires_after: [] }, 'expires_after'],
      ['/vector_stores', { name: 's', chunking_strategy: [] }, 'chunking_strategy'],
      ['/vector_stores/vs_1/search', { query: 'q', ranking_options: [] }, 'ranking_options'],
      ['/embeddings', [], null],
      ['/images/generations', [], null],
      ['/audio/speech', [], null],
    ];
    for (const [path, body, param] of cases)
      expect(await post(path, body), `${path} ${JSON.stringify(body)}`).toMatchObject(wrongType(param));
  });
});
