import { describe, expect, it } from 'vitest';
import { configuredSource, filesOwner, modelSource, sourceBase } from '../../../src/catalogue/sources';
import { chatEngines } from '../../../src/page/engines/chat';
import { modelJob, modelResolver } from '../../../src/page/engines/_model-files';
import type { EngineHost, EngineHosts } from '../../../src/page/hosts/engine-hosts';
import { EngineRegistry } from '../../../src/page/engines/_registry';
import type { VaaniOptions } from '../../../src/protocol/options';

const folder = { baseURL: 'https://site.test/models/chat-v2/', files: ['config.json'] };

describe('agent-v1 reads the chat model’s files (SHARED_FILES)', () => {
  it("takes chat-v2's configured source when it has none of its own, its own settings over it", () => {
    const models = { 'chat-v2': folder };
    expect(filesOwner('agent-v1', models)).toBe('chat-v2');
    expect(modelSource('agent-v1', models)).toEqual(folder);
    expect(modelSource('agent-v1', { ...models, 'agent-v1': { dtype: 'q4' } })).toEqual({ ...folder, dtype: 'q4' });
    // Unconfigured, both ids read the same default repo.
    expect(sourceBase(modelSource('agent-v1'))).toBe(sourceBase(modelSource('chat-v2')));
    expect(configuredSource('agent-v1', {})).toBeUndefined();
  });

  it('an own repo or baseURL gives agent-v1 its own files; code-v1 never reads code-v1-base’s', () => {
    const own = { 'chat-v2': folder, 'agent-v1': { baseURL: 'https://site.test/models/agent-v1/' } };
    expect(filesOwner('agent-v1', own)).toBe('agent-v1');
    expect(modelSource('agent-v1', own)).toEqual(own['agent-v1']);
    const code = { 'code-v1-base': { baseURL: 'https://site.test/base/' } };
    expect(filesOwner('code-v1', code)).toBe('code-v1');
    expect(modelSource('code-v1', code)).toEqual({
      repo: 'onnx-community/Qwen2.5-Coder-0.5B-Instruct',
      revision: 'main',
    });
  });

  it("lists and records agent-v1's files as chat-v2's: the same URLs, one cache entry", async () => {
    const options: VaaniOptions = { models: { 'chat-v2': folder } };
    const resolve = modelResolver(options, new EngineRegistry());
    expect(await resolve('agent-v1')).toEqual(await resolve('chat-v2'));
    const job = modelJob('agent-v1', options, modelSource('agent-v1', options.models));
    expect(job).toEqual(modelJob('chat-v2', options, modelSource('chat-v2', options.models)));
    expect(job.model).toBe('chat-v2');
  });

  it('agent-v1 and chat-v2 on one source run on one engine host, released when both are done', () => {
    const made: { key: string | undefined; disposed: boolean }[] = [];
    const hosts: EngineHosts = {
      shared: false,
      host<T>(_options: unknown, key?: string) {
        const entry = { key, disposed: false };
        made.push(entry);
        return { run: async () => undefined as never, dispose: () => (entry.disposed = true) } as EngineHost<T>;
      },
      dispose() {},
    };
    const factories = chatEngines({ models: { 'chat-v2': folder } }, hosts);
    const create = (id: string) => factories.find((factory) => factory.models.includes(id))!.create(id);
    const chat = create('chat-v2');
    const agent = create('agent-v1');
    const code = create('code-v1');
    expect(made.length).toBe(2);
    expect(made[0]!.key).toContain('"model":"chat-v2"');
    chat.dispose();
    expect(made[0]!.disposed).toBe(false);
    agent.dispose();
    expect(made[0]!.disposed).toBe(true);
    code.dispose();
    // With a source of its own, agent-v1 has its own engine.
    const own = chatEngines({ models: { 'chat-v2': folder, 'agent-v1': { baseURL: 'https://x.test/a/' } } }, hosts);
    made.length = 0;
    own[0]!.create('chat-v2');
    own.find((factory) => factory.models.includes('agent-v1'))!.create('agent-v1');
    expect(made.length).toBe(2);
  });
});

describe('the download gate', () => {
  it("runs before a chat engine's prefill as before its complete: both load the model's files", async () => {
    const gated: string[] = [];
    const registry = new EngineRegistry(async (kind, id) => {
      gated.push(`${kind}:${id}`);
      throw new Error('declined');
    });
    let ran = 0;
    registry.add({
      kind: 'chat',
      models: ['chat-v2'],
      info: () => ({ backends: ['wasm'] }),
      create: () => ({
        complete: async () => (
          ran++,
          { finish_reason: 'stop', usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 } }
        ),
        prefill: async () => (ran++, 0),
        dispose() {},
      }),
    });
    const engine = registry.get('chat', 'chat-v2')!;
    await expect(
      engine.prefill!({ model: 'chat-v2', messages: [] } as never, new AbortController().signal),
    ).rejects.toThrow('declined');
    expect(gated).toEqual(['chat:chat-v2']);
    expect(ran).toBe(0);
  });
});
