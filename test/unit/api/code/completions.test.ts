import { describe, expect, it } from 'vitest';
import { EngineError } from '../../../../src/protocol/errors';
import { scriptedChat } from '../../../support/chat-engine';
import { BASE, postJson, service } from '../helpers';

const models = ['code-v1', 'code-v1-base'];

describe('POST /code/completions', () => {
  it('complete: fill-in-the-middle on the base model with code defaults (temperature 0.2, 128 tokens)', async () => {
    const base = scriptedChat(['return a + b'], { models: ['code-v1-base'] });
    const instruct = scriptedChat(['x'], { models: ['code-v1'] });
    const res = await service({}, [base.factory, instruct.factory]).fetch(
      `${BASE}/code/completions`,
      postJson({ prompt: 'def add(a, b):\n    ', suffix: '\n', boundary: 'block' }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      object: 'text_completion',
      model: 'code-v1',
      choices: [{ text: 'return a + b', finish_reason: 'stop' }],
    });
    expect(base.seen[0]).toMatchObject({
      prompt: 'def add(a, b):\n    ',
      suffix: '\n',
      boundary: 'block',
      temperature: 0.2,
      max_tokens: 128,
      messages: [],
    });
    expect(instruct.seen).toEqual([]);
  });

  it('debug: the instruct model with the code fenced; the answer carries the block to apply', async () => {
    const { factory, seen } = scriptedChat(['Missing paren.\n```python\n', 'print(x)\n```'], { models });
    const res = await service({}, [factory]).fetch(
      `${BASE}/code/completions`,
      postJson({ model: 'code-v1', prompt: 'print(x', mode: 'debug', language: 'python' }),
    );
    const body = await res.json();
    expect(body.choices[0].code).toEqual({ language: 'python', text: 'print(x)' });
    expect(seen[0]!.prompt).toBeUndefined();
    expect(seen[0]!.messages[1]).toEqual({ role: 'user', content: '```python\nprint(x\n```' });
    expect(seen[0]!.max_tokens).toBe(768);
  });

  it('explain streams legacy chunks', async () => {
    const { factory } = scriptedChat(['It ', 'adds.'], { models });
    const res = await service({}, [factory]).fetch(
      `${BASE}/code/completions`,
      postJson({ prompt: 'a + b', mode: 'explain', stream: true }),
    );
    const events = (await res.text()).split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const texts = events.slice(0, -1).map((event) => JSON.parse(event.slice(6)).choices[0].text);
    expect(texts).toEqual(['It ', 'adds.', '']);
  });

  it('400s name the field: an unknown mode or boundary, a chat model; the next request works', async () => {
    const { factory } = scriptedChat(['ok'], { models });
    const ai = service({}, [factory]);
    const post = (body: object) => ai.fetch(`${BASE}/code/completions`, postJson({ prompt: 'x', ...body }));
    const error = async (body: object) => {
      const res = await post(body);
      return { status: res.status, ...(await res.json()).error };
    };
    expect(await error({ mode: 'refactor' })).toMatchObject({ status: 400, param: 'mode', code: 'invalid_value' });
    expect(await error({ boundary: 'file' })).toMatchObject({ status: 400, param: 'boundary' });
    expect(await error({ prompt: 3 })).toMatchObject({ status: 400, param: 'prompt' });
    expect(await error({ model: 'chat-v2' })).toMatchObject({ status: 400, code: 'model_not_supported' });
    expect((await post({})).status).toBe(200);
  });

  it("complete on code-v1 with code-v1-base's files missing: the error says the base model's files are the ones", async () => {
    const missing = new EngineError(
      'unavailable',
      'The chat model could not be loaded from https://site.test/models/code-v1-base/: The folder https://site.test/models/code-v1-base/ has no onnx/model.onnx.',
      'model_unavailable',
      'model',
    );
    const base = scriptedChat([], { models: ['code-v1-base'], failBeforeOutput: missing });
    const instruct = scriptedChat(['It adds.'], { models: ['code-v1'] });
    const ai = service({}, [base.factory, instruct.factory]);
    const error = async (path: string, body: object) => {
      const res = await ai.fetch(`${BASE}${path}`, postJson({ prompt: 'def add(a, b):', ...body }));
      return { status: res.status, ...(await res.json()).error };
    };
    for (const [path, body] of [
      ['/completions', { model: 'code-v1' }],
      ['/code/completions', { suffix: '\n' }],
    ] as const) {
      const answer = await error(path, body);
      expect(answer).toMatchObject({ status: 503, code: 'model_unavailable' });
      expect(answer.message).toContain('on code-v1 run on its base model, code-v1-base');
      expect(answer.message).toContain('https://site.test/models/code-v1-base/ has no onnx/model.onnx');
      expect(answer.message).toContain('`npx vaani pull code-v1-base');
    }
    const explain = await ai.fetch(`${BASE}/code/completions`, postJson({ prompt: 'a + b', mode: 'explain' }));
    expect(explain.status).toBe(200);
  });
});
