import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { objectRecord } from '../../../src/api/body';
import { metadataSchema, scopeSchema } from '../../../src/api/memory/schema';
import { BASE, postJson, service } from './helpers';

async function error(res: Response) {
  return { status: res.status, ...(await res.json()).error };
}

describe('fields documented as objects', () => {
  it('objectRecord takes a plain object and refuses arrays, null and scalars as wrong types', () => {
    const record = objectRecord(v.string(), v.string());
    expect(v.parse(record, { a: 'b' })).toEqual({ a: 'b' });
    for (const wrong of [['a'], [], null, 'a', 1]) {
      const issue = v.safeParse(record, wrong).issues?.[0];
      expect(issue?.kind, JSON.stringify(wrong)).toBe('schema');
    }
    expect(v.is(scopeSchema, ['asha'])).toBe(false);
    expect(v.is(metadataSchema, ['rail'])).toBe(false);
    expect(v.is(metadataSchema, { topic: 'rail', km: 3, ok: true })).toBe(true);
  });

  const ai = service();
  const wrongType = (param: string) => ({ status: 400, code: 'invalid_type', param });

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
});
