import { describe, expect, it } from 'vitest';
import { readForm, readOptionalJson } from '../../../src/page/api/http/body';
import { ApiError } from '../../../src/page/api/http/errors';

const multipart = (body: string, boundary = 'XyZ') =>
  new Request('http://x/v1/audio/isolate', {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
  });

describe('readForm', () => {
  it('reads an empty form (only the closing boundary) as no fields', async () => {
    expect((await readForm(multipart('--XyZ--\r\n'))).value).toEqual({});
    expect((await readForm(new Request('http://x/', { method: 'POST', body: new FormData() }))).value).toEqual({});
  });

  it('reads fields, and repeated name[] parts as a list', async () => {
    const form = new FormData();
    form.append('model', 'speech-tts-v1');
    form.append('include[]', 'a');
    form.append('include[]', 'b');
    const { value } = await readForm(new Request('http://x/', { method: 'POST', body: form }));
    expect(value).toEqual({ model: 'speech-tts-v1', include: ['a', 'b'] });
  });

  it('reads name[key] parts as an object (the openai SDK sends chunking_strategy so)', async () => {
    const form = new FormData();
    form.append('chunking_strategy[type]', 'server_vad');
    form.append('chunking_strategy[threshold]', '0.4');
    const { value } = await readForm(new Request('http://x/', { method: 'POST', body: form }));
    expect(value).toEqual({ chunking_strategy: { type: 'server_vad', threshold: '0.4' } });
  });

  it('answers a broken body with a 400 invalid_multipart', async () => {
    const error = await readForm(multipart('not multipart at all')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_multipart' });
  });
});

describe('readOptionalJson', () => {
  it('reads a bodiless POST with no content type as {}, and a JSON body as JSON', async () => {
    const bodiless = await readOptionalJson(new Request('http://x/v1/vector_stores', { method: 'POST' }));
    expect([bodiless.value, bodiless.raw.length]).toEqual([{}, 0]);
    const json = await readOptionalJson(
      new Request('http://x/v1/vector_stores', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"a"}',
      }),
    );
    expect(json.value).toEqual({ name: 'a' });
    await expect(
      readOptionalJson(
        new Request('http://x/', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x' }),
      ),
    ).rejects.toBeInstanceOf(ApiError);
  });
});
