import { expect, test } from '@playwright/test';
import { startRemote } from '../support/remote-server';
import { openHarness } from './support/page';

test.describe('the service through the openai SDK', () => {
  test('lists and retrieves models with the catalogue extensions', async ({ page }) => {
    await openHarness(page);
    const result = await page.evaluate(async () => {
      const ai = window.Vaani.createVaani();
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
        maxRetries: 0,
      });
      const ids = [];
      for await (const model of client.models.list()) ids.push(model.id);
      const pro = await client.models.retrieve('chat-v2-pro');
      const image = (await client.models.retrieve('image-v1')) as unknown as Record<string, unknown> & {
        x_vaani: { decision: { run: string; code: string }; download: { bytes: number; exact: boolean } };
      };
      return { baseURL: ai.baseURL, ids, pro, image };
    });
    expect(result.baseURL).toBe('http://localhost:' + new URL(page.url()).port + '/v1');
    expect(result.ids).toEqual([
      'chat-v2-pro',
      'chat-v2',
      'speech-v1-turbo',
      'image-v1',
      'code-v1',
      'agent-v1',
      'speech-tts-v1',
      'speech-stt-v1',
      'embed-v1',
      'builtin-chat',
    ]);
    expect(result.pro).toMatchObject({
      id: 'chat-v2-pro',
      object: 'model',
      product: 'chat',
      route: '/v1/chat/completions',
      context_window: 131072,
      price: { currency: 'INR', amount: 60, per: '1M tokens' },
      status: 'available',
    });
    // image-v1's default weights: their licence, and (no WebGPU adapter in this Chromium) a plan that downloads nothing.
    expect(result.image).toMatchObject({ license: 'CreativeML-OpenRAIL-M', commercial: true });
    expect(result.image.use_restrictions).toMatch(/^CreativeML OpenRAIL-M Attachment A: /);
    expect(result.image.x_vaani.decision).toMatchObject({ run: 'none', code: 'needs_webgpu' });
    expect(result.image.x_vaani.download).toMatchObject({ bytes: 2150e6, exact: false });
  });

  test('GET /voices answers the §2.6 shape', async ({ page }) => {
    await openHarness(page);
    const voices = await page.evaluate(async () => {
      const ai = window.Vaani.createVaani();
      const res = await ai.fetch('/v1/voices', { headers: { authorization: 'Bearer k' } });
      return res.json();
    });
    expect(Object.keys(voices).sort()).toEqual(['licences', 'models', 'voices']);
    expect(voices.licences).toBe('commercial');
    expect(voices.voices.length).toBeGreaterThan(30);
    for (const voice of voices.voices) {
      const extra = Object.keys(voice).filter(
        (key) => !['gender', 'id', 'language', 'languageCode', 'name'].includes(key),
      );
      // Beyond §2.6: downloadBytes and weights (a neural voice's model id), aliases (OpenAI's voice
      // names for it), license, commercial and a CC-BY voice's attribution, all in docs/api.md.
      const beyond = ['downloadBytes', 'weights', 'aliases', 'license', 'commercial', 'attribution'];
      expect(extra.every((key) => beyond.includes(key))).toBe(true);
      expect('weights' in voice).toBe('downloadBytes' in voice);
      if (voice.weights)
        expect(['kokoro-82m', 'mms-tts-hin', 'vits-rasa-13', 'piper-te-padmavathi']).toContain(voice.weights);
      expect(typeof voice.license).toBe('string');
      expect(typeof voice.commercial).toBe('boolean');
      if (/^CC-BY-\d/.test(voice.license)) expect(voice.attribution).toEqual(expect.any(String));
      for (const alias of voice.aliases ?? []) expect(alias).toMatch(/^[a-z]+$/);
      expect(voice).toMatchObject({
        id: expect.any(String),
        name: expect.any(String),
        language: expect.any(String),
        gender: expect.stringMatching(/^(female|male|neutral)$/),
      });
      expect(voice.languageCode).toMatch(/^[a-z]{2,3}-[A-Z]{2}$/);
    }
    expect(voices.voices.filter((voice: { aliases: string[] }) => voice.aliases.includes('alloy'))).toHaveLength(1);
    expect(voices.models).toEqual(
      expect.arrayContaining([
        { id: 'speech-tts-v1', kind: 'tts' },
        { id: 'speech-stt-v1', kind: 'stt' },
      ]),
    );
  });

  test('each error class arrives as the SDK error it should be', async ({ page }) => {
    await openHarness(page);
    const errors = await page.evaluate(async () => {
      const ai = window.Vaani.createVaani();
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
        maxRetries: 0,
      });
      const caught = async (run: () => Promise<unknown>) => {
        try {
          await run();
          return null;
        } catch (error) {
          const e = error as { constructor: { name: string }; status: number; code: string; param: string };
          return { name: e.constructor.name, status: e.status, code: e.code, param: e.param };
        }
      };
      const raw = async (init: RequestInit, path = '/v1/chat/completions') => {
        const res = await ai.fetch(path, init);
        return { status: res.status, ...(await res.json()).error };
      };
      const msgs = [{ role: 'user' as const, content: 'hi' }];
      return {
        auth: await caught(() => client.models.list({ headers: { authorization: 'Token k' } })),
        temperature: await caught(() =>
          client.chat.completions.create({ model: 'chat-v2', messages: msgs, temperature: 9 }),
        ),
        role: await caught(() =>
          client.chat.completions.create({ model: 'chat-v2', messages: [{ role: 'wizard', content: 'x' } as never] }),
        ),
        empty: await caught(() => client.chat.completions.create({ model: 'chat-v2', messages: [] })),
        unknownModel: await caught(() => client.chat.completions.create({ model: 'gpt-9', messages: msgs })),
        unavailable: await caught(() => client.chat.completions.create({ model: 'chat-v2', messages: msgs })),
        speechFormat: await caught(() =>
          client.audio.speech.create({
            model: 'speech-tts-v1',
            voice: 'x',
            input: 'a',
            response_format: 'ogg' as 'mp3',
          }),
        ),
        route: await raw({ headers: { authorization: 'Bearer k' } }, '/v1/nowhere'),
        method: await raw({ method: 'DELETE', headers: { authorization: 'Bearer k' } }),
        json: await raw({
          method: 'POST',
          headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
          body: '{"model":',
        }),
        type: await raw({
          method: 'POST',
          headers: { authorization: 'Bearer k', 'content-type': 'text/plain' },
          body: 'hi',
        }),
        size: await raw({
          method: 'POST',
          headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'chat-v2', messages: [{ role: 'user', content: 'x'.repeat(5_000_000) }] }),
        }),
        dataQuery: await raw(
          { method: 'POST', headers: { authorization: 'Bearer k', 'content-type': 'application/json' }, body: '{}' },
          '/v1/data/query',
        ),
      };
    });
    expect(errors.auth).toMatchObject({ name: 'AuthenticationError', status: 401, code: 'invalid_api_key' });
    expect(errors.temperature).toMatchObject({ name: 'BadRequestError', status: 400, param: 'temperature' });
    expect(errors.role).toMatchObject({ name: 'BadRequestError', param: 'messages[0].role' });
    expect(errors.empty).toMatchObject({ name: 'BadRequestError', param: 'messages' });
    expect(errors.unknownModel).toMatchObject({ name: 'NotFoundError', code: 'model_not_found' });
    expect(errors.unavailable).toMatchObject({ name: 'InternalServerError', status: 503, code: 'model_unavailable' });
    expect(errors.speechFormat).toMatchObject({ name: 'BadRequestError', param: 'response_format' });
    expect(errors.route).toMatchObject({ status: 404, code: 'unknown_route' });
    expect(errors.method).toMatchObject({ status: 405, code: 'method_not_allowed' });
    expect(errors.json).toMatchObject({ status: 400, code: 'invalid_json' });
    expect(errors.type).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    expect(errors.size).toMatchObject({ status: 413, code: 'request_too_large' });
    expect(errors.dataQuery).toMatchObject({ status: 400, code: 'missing_required_parameter', param: 'query' });
  });

  test('install() answers plain fetch for baseURL only; uninstall() restores it', async ({ page }) => {
    await openHarness(page);
    const result = await page.evaluate(async () => {
      const original = window.fetch;
      const ai = window.Vaani.createVaani({ auth: 'optional' });
      ai.install();
      const models = (await fetch('/v1/models')).status;
      const other = (await fetch('/test/browser/pages/harness.html')).headers.get('content-type');
      ai.uninstall();
      const restored = window.fetch === original;
      const after = (await fetch('/v1/models')).status;
      return { models, other, restored, after };
    });
    expect(result).toEqual({ models: 200, other: expect.stringContaining('text/html'), restored: true, after: 404 });
  });
});

test.describe('remote fallback against a loopback server', () => {
  test('JSON, SSE pass-through, abort mid-stream, 500 then success, server down', async ({ page }) => {
    let flaky = 0;
    const remote = await startRemote((seen, res) => {
      if (seen.body.includes('flaky') && flaky++ === 0) {
        res.writeHead(500, { 'access-control-allow-origin': '*' }).end('{"error":{"message":"boom"}}');
        return true;
      }
      return false;
    });
    try {
      await openHarness(page);
      const result = await page.evaluate(async (url) => {
        const ai = window.Vaani.createVaani({ remote: { baseURL: url, backoffMs: 20 } });
        const client = new window.OpenAI({
          baseURL: ai.baseURL,
          apiKey: 'k',
          fetch: ai.fetch,
          dangerouslyAllowBrowser: true,
          maxRetries: 0,
        });
        const msgs = (content: string) => [{ role: 'user' as const, content }];
        const json = await client.chat.completions.create({ model: 'chat-v2', messages: msgs('ek do teen') });
        const streamed: string[] = [];
        let finish = '';
        for await (const chunk of await client.chat.completions.create({
          model: 'chat-v2',
          messages: msgs('char paanch chhe'),
          stream: true,
        })) {
          streamed.push(chunk.choices[0]?.delta.content ?? '');
          finish ||= chunk.choices[0]?.finish_reason ?? '';
        }
        const controller = new AbortController();
        const long = await client.chat.completions.create(
          { model: 'chat-v2', messages: msgs(Array.from({ length: 400 }, (_, i) => `w${i}`).join(' ')), stream: true },
          { signal: controller.signal },
        );
        let received = 0;
        let buffered = 0;
        for await (const chunk of long) {
          // Deltas the SDK had already read when the abort came are still yielded.
          if (controller.signal.aborted) buffered++;
          else received += chunk.choices[0]?.delta.content ? 1 : 0;
          if (received === 3 && !controller.signal.aborted) controller.abort();
        }
        const flaky = await client.chat.completions.create({ model: 'chat-v2', messages: msgs('flaky') });
        const after = await client.chat.completions.create({ model: 'chat-v2', messages: msgs('still here') });
        return {
          json: json.choices[0]!.message.content,
          streamed: streamed.join(''),
          finish,
          received,
          cutEarly: buffered < 100,
          flaky: flaky.choices[0]!.message.content,
          after: after.choices[0]!.message.content,
        };
      }, remote.url);
      expect(result).toMatchObject({
        json: 'remote: ek do teen',
        streamed: 'remote: char paanch chhe',
        finish: 'stop',
        received: 3,
        cutEarly: true,
        flaky: 'remote: flaky',
        after: 'remote: still here',
      });
      await expect.poll(() => remote.streams.cut).toBe(1);
      expect(remote.streams.completed).toBe(1);
      expect(remote.requests.filter((r) => r.body.includes('flaky'))).toHaveLength(2);
    } finally {
      await remote.close();
    }
    const down = await page.evaluate(async (url) => {
      const ai = window.Vaani.createVaani({ remote: { baseURL: url, backoffMs: 10 } });
      const res = await ai.fetch('/v1/chat/completions', {
        method: 'POST',
        headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'chat-v2', messages: [{ role: 'user', content: 'anyone?' }] }),
      });
      return { status: res.status, body: await res.json() };
    }, remote.url);
    expect(down).toMatchObject({ status: 502, body: { error: { code: 'remote_unreachable' } } });
  });
});
