import { describe, expect, it } from 'vitest';
import { AUTH, BASE, postJson, service } from './helpers';

const chat = { model: 'chat-v2', messages: [{ role: 'user', content: 'hi' }] };

async function error(res: Response) {
  const body = await res.json();
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  return { status: res.status, ...body.error };
}

describe('errors in the OpenAI shape', () => {
  const ai = service();

  it('401 without or with a malformed Authorization header', async () => {
    const missing = await error(await ai.fetch(`${BASE}/models`));
    expect(missing).toMatchObject({ status: 401, type: 'authentication_error', code: 'invalid_api_key' });
    const malformed = await error(await ai.fetch(`${BASE}/models`, { headers: { authorization: 'Token abc' } }));
    expect(malformed.status).toBe(401);
  });

  it('auth optional lets requests without a key through', async () => {
    const open = service({ auth: 'optional' });
    expect((await open.fetch(`${BASE}/models`)).status).toBe(200);
  });

  it('400 on malformed JSON', async () => {
    expect(await error(await ai.fetch(`${BASE}/chat/completions`, postJson('{"model": ')))).toMatchObject({
      status: 400,
      code: 'invalid_json',
    });
  });

  it('400 naming the parameter on wrong types and out-of-range values', async () => {
    const wrongType = await error(
      await ai.fetch(`${BASE}/chat/completions`, postJson({ ...chat, temperature: 'hot' })),
    );
    expect(wrongType).toMatchObject({ status: 400, param: 'temperature', code: 'invalid_type' });
    const range = await error(await ai.fetch(`${BASE}/chat/completions`, postJson({ ...chat, temperature: 2.5 })));
    expect(range).toMatchObject({ status: 400, param: 'temperature', code: 'invalid_value' });
    const speed = await error(
      await ai.fetch(`${BASE}/audio/speech`, postJson({ model: 'speech-tts-v1', voice: 'x', input: 'a', speed: 3 })),
    );
    expect(speed).toMatchObject({ status: 400, param: 'speed' });
    const normalization = await error(
      await ai.fetch(
        `${BASE}/audio/speech`,
        postJson({ model: 'speech-tts-v1', voice: 'x', input: 'a', apply_text_normalization: 'yes' }),
      ),
    );
    expect(normalization).toMatchObject({ status: 400, param: 'apply_text_normalization' });
  });

  it('400 on empty messages, a bad role, a missing model', async () => {
    expect(await error(await ai.fetch(`${BASE}/chat/completions`, postJson({ ...chat, messages: [] })))).toMatchObject({
      status: 400,
      param: 'messages',
    });
    const role = await error(
      await ai.fetch(`${BASE}/chat/completions`, postJson({ ...chat, messages: [{ role: 'wizard', content: 'x' }] })),
    );
    expect(role).toMatchObject({ status: 400, param: 'messages[0].role' });
    const model = await error(await ai.fetch(`${BASE}/chat/completions`, postJson({ messages: chat.messages })));
    expect(model).toMatchObject({ status: 400, param: 'model', code: 'missing_required_parameter' });
  });

  it('400 on an unknown response_format', async () => {
    const form = new FormData();
    form.set('file', new File([new Uint8Array([1, 2, 3])], 'a.wav'));
    form.set('model', 'speech-stt-v1');
    form.set('response_format', 'docx');
    const res = await ai.fetch(`${BASE}/audio/transcriptions`, { method: 'POST', headers: AUTH, body: form });
    expect(await error(res)).toMatchObject({ status: 400, param: 'response_format' });
  });

  it('404 on unknown routes and unknown models', async () => {
    expect(await error(await ai.fetch(`${BASE}/nope`, { headers: AUTH }))).toMatchObject({
      status: 404,
      code: 'unknown_route',
    });
    const model = await error(await ai.fetch(`${BASE}/chat/completions`, postJson({ ...chat, model: 'gpt-9' })));
    expect(model).toMatchObject({ status: 404, code: 'model_not_found', param: 'model' });
    expect((await error(await ai.fetch(`${BASE}/models/gpt-9`, { headers: AUTH }))).code).toBe('model_not_found');
  });

  it('400 for a model of another product', async () => {
    const res = await ai.fetch(`${BASE}/chat/completions`, postJson({ ...chat, model: 'speech-tts-v1' }));
    expect(await error(res)).toMatchObject({ status: 400, code: 'model_not_supported' });
  });

  it('405 with Allow on a wrong method', async () => {
    const res = await ai.fetch(`${BASE}/chat/completions`, { headers: AUTH });
    expect(res.headers.get('allow')).toBe('POST');
    expect(await error(res)).toMatchObject({ status: 405, code: 'method_not_allowed' });
  });

  it('413 over the JSON limit', async () => {
    const huge = JSON.stringify({ ...chat, messages: [{ role: 'user', content: 'x'.repeat(5 * 1024 * 1024) }] });
    expect(await error(await ai.fetch(`${BASE}/chat/completions`, postJson(huge)))).toMatchObject({
      status: 413,
      code: 'request_too_large',
    });
  });

  it('415 on a wrong content type', async () => {
    const res = await ai.fetch(`${BASE}/chat/completions`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'text/plain' },
      body: '{}',
    });
    expect(await error(res)).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    const audio = await ai.fetch(`${BASE}/audio/isolate`, postJson({}));
    expect((await error(audio)).status).toBe(415);
  });

  it('503 naming the model and how to configure a remote when nothing can answer', async () => {
    const res = await error(await ai.fetch(`${BASE}/chat/completions`, postJson(chat)));
    expect(res).toMatchObject({ status: 503, code: 'model_unavailable' });
    expect(res.message).toContain("'chat-v2'");
    expect(res.message).toContain('remote');
    const only = service({ routing: 'remote-only' });
    expect(
      (await error(await only.fetch(`${BASE}/images/generations`, postJson({ prompt: 'warli peacock' })))).message,
    ).toContain('remote-only');
  });

  it('memory and data validate their bodies first', async () => {
    expect(await error(await ai.fetch(`${BASE}/memory/store`, postJson({})))).toMatchObject({
      status: 400,
      code: 'invalid_value',
    });
    expect(await error(await ai.fetch(`${BASE}/data/query`, postJson({})))).toMatchObject({
      status: 400,
      code: 'missing_required_parameter',
      param: 'query',
    });
  });

  it('the next valid request works after errors', async () => {
    await ai.fetch(`${BASE}/chat/completions`, postJson('{'));
    expect((await ai.fetch(`${BASE}/models`, { headers: AUTH })).status).toBe(200);
  });
});
