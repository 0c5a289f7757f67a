import { describe, expect, it } from 'vitest';
import { EngineRegistry } from '../../../src/runtime/engines';
import { modelResolver } from '../../../src/store/resolve';

const registryListing = (files: string[]) => {
  const registry = new EngineRegistry();
  registry.add({
    kind: 'chat',
    models: ['chat-v2'],
    info: () => ({ backends: ['wasm'] }),
    create: () => {
      throw new Error('not started in this test');
    },
    files: async () => ({ base: 'https://hub.test/org/m/resolve/main/', files: files.map((name) => ({ name })) }),
  });
  return registry;
};

describe('modelResolver', () => {
  it('takes the file list of options.models over the engine factory, resolving the source base', async () => {
    const resolve = modelResolver(
      {
        models: {
          'chat-v2': {
            repo: 'org/mine',
            revision: 'v1',
            host: 'https://mirror.test/',
            files: ['config.json', { name: 'onnx/model.onnx', size: 10 }],
          },
        },
      },
      registryListing(['other.json']),
    );
    expect(await resolve('chat-v2')).toEqual({
      base: 'https://mirror.test/org/mine/resolve/v1/',
      files: [{ name: 'config.json' }, { name: 'onnx/model.onnx', size: 10 }],
    });
  });

  it('falls back to the engine factory, and to nothing for an unknown id', async () => {
    const resolve = modelResolver({ models: { 'chat-v2': { dtype: 'q4' } } }, registryListing(['config.json']));
    expect(await resolve('chat-v2')).toEqual({
      base: 'https://hub.test/org/m/resolve/main/',
      files: [{ name: 'config.json' }],
    });
    expect(await resolve('speech-tts-v1')).toBeUndefined();
  });
});
