import { afterEach, describe, expect, it, vi } from 'vitest';
import { EngineRegistry } from '../../../src/page/engines/_registry';
import { readdirSync, statSync } from 'node:fs';
import { modelFiles, modelResolver } from '../../../src/page/engines/_model-files';
import { llmFiles } from '../../../src/common/layouts/chat';
import { whisperFiles } from '../../../src/common/layouts/whisper';
import { SHARED_DIR } from '../../support/shared';

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
  it("lists a neural voice family's weights from the voice catalogue: every voice's files, on the hub or the folder given", async () => {
    const hub = await modelResolver({}, new EngineRegistry())('kokoro-82m');
    expect(hub!.base).toBe(
      'https://huggingface.co/onnx-community/Kokoro-82M-v1.0-ONNX/resolve/1939ad2a8e416c0acfeecc08a694d14ef25f2231/',
    );
    const names = hub!.files.map((file) => file.name);
    expect(names).toContain('onnx/model_quantized.onnx');
    expect(names.filter((name) => name.startsWith('voices/')).length).toBeGreaterThan(1);
    expect(new Set(names).size).toBe(names.length);
    expect(hub!.files.every((file) => file.size === undefined)).toBe(true);
    const vits = await modelResolver(
      { models: { 'mms-tts-hin': { repo: 'me/mms' } } },
      new EngineRegistry(),
    )('mms-tts-hin');
    expect(vits!.base).toBe('https://huggingface.co/me/mms/resolve/main/');
    expect(await modelResolver({}, new EngineRegistry())('no-such-voice')).toBeUndefined();
  });

  it('takes the files the engine reads over a files option (which only says what exists)', async () => {
    const resolve = modelResolver(
      { models: { 'chat-v2': { baseURL: 'https://site.test/chat-v2/', files: ['config.json', 'notes.json'] } } },
      registryListing(['config.json']),
    );
    expect(await resolve('chat-v2')).toEqual({
      base: 'https://hub.test/org/m/resolve/main/',
      files: [{ name: 'config.json' }],
    });
  });

  it('takes the files option for a model no engine lists, resolving the source base', async () => {
    const resolve = modelResolver(
      {
        models: {
          mine: {
            repo: 'org/mine',
            revision: 'v1',
            host: 'https://mirror.test/',
            files: ['config.json', { name: 'onnx/model.onnx', size: 10 }],
          },
        },
      },
      registryListing(['other.json']),
    );
    expect(await resolve('mine')).toEqual({
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

describe('modelResolver over a pulled folder', () => {
  const manifest = {
    vaani: 1,
    model: 'kokoro-82m',
    source: { host: 'https://hub.test', repo: 'org/kokoro', revision: 'main' },
    dtypes: ['q8'],
    files: [{ name: 'onnx/model_quantized.onnx', size: 12, sha256: 'a'.repeat(64) }],
  };
  const serve = (answer: () => Response) => {
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => (calls.push(String(url)), answer()));
    return calls;
  };
  afterEach(() => vi.unstubAllGlobals());

  it("lists a model no engine lists (a voice's weights) from its folder's vaani-manifest.json", async () => {
    const calls = serve(() => Response.json(manifest));
    const resolve = modelResolver(
      { models: { 'kokoro-82m': { baseURL: 'https://site.test/models/kokoro-82m' } } },
      new EngineRegistry(),
    );
    expect(await resolve('kokoro-82m')).toEqual({
      base: 'https://site.test/models/kokoro-82m/',
      files: manifest.files,
    });
    expect(calls).toEqual(['https://site.test/models/kokoro-82m/vaani-manifest.json']);
  });

  it('stays unknown without a manifest (a 404 or an HTML fallback page) and names a broken one', async () => {
    const registry = new EngineRegistry();
    const options = { models: { x: { baseURL: 'https://site.test/x/' } } };
    serve(() => new Response('Not found', { status: 404 }));
    expect(await modelResolver(options, registry)('x')).toBeUndefined();
    serve(() => new Response('<!doctype html>', { headers: { 'content-type': 'text/html' } }));
    expect(await modelResolver(options, registry)('x')).toBeUndefined();
    serve(() => Response.json({ vaani: 1, files: [{ name: 'a' }] }));
    await expect(modelResolver(options, registry)('x')).rejects.toThrow(
      'https://site.test/x/vaani-manifest.json is not a vaani manifest',
    );
  });
});

describe('modelFiles with a folder listing as the files option (as the demo passes)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists only what the chat engine reads for its dtype, with the listing’s sizes, and asks the server nothing', async () => {
    const folder = `${SHARED_DIR}fixtures/tiny-random-llama-fp16-genai/`;
    // The whole folder: special_tokens_map.json is there, but the engine never reads it.
    const listing = readdirSync(folder).map((name) => ({ name, size: statSync(`${folder}${name}`).size }));
    expect(listing.map((file) => file.name)).toContain('special_tokens_map.json');
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => (calls.push(String(url)), new Response(null, { status: 404 })));
    const options = {
      backend: 'wasm' as const,
      models: { 'chat-v2': { baseURL: 'https://site.test/models/chat-v2/', files: listing } },
    };
    const size = (name: string) => listing.find((file) => file.name === name)!.size;
    const expected = [
      { name: 'tokenizer.json', size: size('tokenizer.json') },
      { name: 'tokenizer_config.json', size: size('tokenizer_config.json') },
      { name: 'genai_config.json', size: size('genai_config.json'), optional: true },
      { name: 'model.onnx', size: size('model.onnx') },
      { name: 'model.onnx.data', size: size('model.onnx.data') },
    ];
    for (const id of ['chat-v2', 'agent-v1'])
      expect(await modelFiles(id, options, llmFiles)).toEqual({
        base: 'https://site.test/models/chat-v2/',
        files: expected,
      });
    expect(calls).toEqual([]);
  });
});

describe('modelFiles for speech-stt-v1', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads the Whisper model named apart (`whisper: { baseURL }`), not the catalogue repo', async () => {
    const calls: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => (calls.push(String(url)), new Response(null, { status: 404 })));
    const listing = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'preprocessor_config.json']
      .concat(['onnx/encoder_model_quantized.onnx', 'onnx/decoder_model_merged_quantized.onnx'])
      .map((name) => ({ name, size: 1 }));
    const options = {
      backend: 'wasm' as const,
      models: {
        'speech-stt-v1': { whisper: { baseURL: 'https://site.test/models/whisper/', files: listing }, languages: {} },
      },
    };
    const found = await modelFiles('speech-stt-v1', options, whisperFiles);
    expect(found.base).toBe('https://site.test/models/whisper/');
    expect(found.files.map((file) => file.name)).toContain('onnx/encoder_model_quantized.onnx');
    expect(calls).toEqual([]);
    // Named at the top level (the older form), it is still the Whisper model.
    const flat = {
      backend: 'wasm' as const,
      models: { 'speech-stt-v1': { baseURL: 'https://site.test/w', files: listing } },
    };
    expect((await modelFiles('speech-stt-v1', flat, whisperFiles)).base).toBe('https://site.test/w/');
  });
});
