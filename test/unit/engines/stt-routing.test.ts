import { describe, expect, it } from 'vitest';
import { toApiError } from '../../../src/page/api/http/errors';
import { INDIC_SOURCES, speechRecognitionSources } from '../../../src/catalogue/sources';
import { engineFor, routeTranscription } from '../../../src/page/engines/_stt-routing';
import { SHRUTI_CODES, shrutiSource } from '../../../src/catalogue/shruti';
import { transcriptionEngines } from '../../../src/page/engines/transcription';
import type { EngineHosts } from '../../../src/page/hosts/engine-hosts';
import type { VaaniOptions } from '../../../src/protocol/options';

const on = { indic: true, languages: {} };
const never = async (): Promise<string> => {
  throw new Error('detection must not run');
};

describe('speech-stt-v1 routing', () => {
  it('IndicConformer for the 22 scheduled languages, Whisper for the rest', () => {
    for (const code of ['hi', 'ta', 'sat', 'brx', 'doi', 'ks', 'kok', 'mai', 'mni', 'sd', 'ur'])
      expect(engineFor(code, on)).toBe('indic-conformer');
    for (const code of ['en', 'fr', 'zh']) expect(engineFor(code, on)).toBe('whisper');
    expect(engineFor('hi', { indic: false, languages: {} })).toBe('whisper');
    expect(engineFor('hi', { indic: true, languages: { hi: 'whisper' } })).toBe('whisper');
    expect(engineFor('en', { indic: true, languages: { en: 'indic-conformer' } })).toBe('whisper');
  });

  it('a language in the request routes without detection', async () => {
    expect(await routeTranscription({ task: 'transcribe', language: 'ta' }, on, never)).toEqual({
      engine: 'indic-conformer',
      language: 'ta',
      source: 'request',
    });
    expect(await routeTranscription({ task: 'transcribe', language: 'en' }, on, never)).toMatchObject({
      engine: 'whisper',
    });
  });

  it('translations and engine=whisper go to Whisper; engine=indic-conformer overrides a Whisper language choice', async () => {
    expect(await routeTranscription({ task: 'translate', language: 'hi' }, on, never)).toMatchObject({
      engine: 'whisper',
    });
    expect(
      await routeTranscription({ task: 'transcribe', language: 'hi', engine: 'whisper' }, on, never),
    ).toMatchObject({
      engine: 'whisper',
      language: 'hi',
    });
    const config = { indic: true, languages: { hi: 'whisper' as const } };
    expect(
      await routeTranscription({ task: 'transcribe', language: 'hi', engine: 'indic-conformer' }, config, never),
    ).toMatchObject({ engine: 'indic-conformer' });
  });

  it('without a language, Whisper detects it and the detected language picks the family', async () => {
    expect(await routeTranscription({ task: 'transcribe' }, on, async () => 'bn')).toEqual({
      engine: 'indic-conformer',
      language: 'bn',
      source: 'detected',
    });
    expect(await routeTranscription({ task: 'transcribe' }, on, async () => 'en')).toEqual({
      engine: 'whisper',
      language: 'en',
      source: 'detected',
    });
    expect(await routeTranscription({ task: 'transcribe' }, { indic: false, languages: {} }, never)).toEqual({
      engine: 'whisper',
      source: 'default',
    });
  });

  it('impossible choices are 400s naming the parameter', async () => {
    const reject = (promise: Promise<unknown>, param: string) =>
      expect(promise.catch(toApiError)).resolves.toMatchObject({ status: 400, param });
    await reject(routeTranscription({ task: 'translate', engine: 'indic-conformer' }, on, never), 'engine');
    await reject(
      routeTranscription({ task: 'transcribe', language: 'en', engine: 'indic-conformer' }, on, never),
      'language',
    );
    await reject(
      routeTranscription({ task: 'transcribe', engine: 'indic-conformer' }, on, async () => 'fr'),
      'language',
    );
    await reject(
      routeTranscription(
        { task: 'transcribe', language: 'hi', engine: 'indic-conformer' },
        { indic: false, languages: {} },
        never,
      ),
      'engine',
    );
  });
});

describe('speech-stt-v1 sources', () => {
  it('defaults: Whisper base, and the int8 IndicConformer on WASM / fp32 on WebGPU', () => {
    expect(speechRecognitionSources({})).toEqual({
      whisper: { repo: 'onnx-community/whisper-base', revision: 'main' },
      indic: INDIC_SOURCES.int8,
      languages: {},
      shruti: Object.fromEntries(SHRUTI_CODES.map((code) => [code, shrutiSource(code)])),
    });
    expect(speechRecognitionSources({ backend: 'webgpu' }).indic).toEqual(INDIC_SOURCES.fp32);
  });

  it('a plain source is the Whisper model, as before; whisper / indic / languages set each part', () => {
    const flat = speechRecognitionSources({ models: { 'speech-stt-v1': { baseURL: '/w/', dtype: 'fp32' } } });
    expect(flat.whisper).toEqual({ baseURL: '/w/', dtype: 'fp32' });
    expect(flat.indic).toEqual(INDIC_SOURCES.int8);
    const split = speechRecognitionSources({
      models: {
        'speech-stt-v1': {
          whisper: { dtype: 'q4' },
          indic: { baseURL: '/i/', decoding: 'rnnt' },
          languages: { ur: 'whisper' },
        },
      },
    });
    expect(split).toEqual({
      whisper: { repo: 'onnx-community/whisper-base', revision: 'main', dtype: 'q4' },
      indic: { baseURL: '/i/', decoding: 'rnnt' },
      languages: { ur: 'whisper' },
      shruti: expect.objectContaining({
        ta: { repo: 'udgamlabs/Shruti-ONNX', revision: 'main', folder: 'ta/sherpa-onnx/' },
      }),
    });
    expect(speechRecognitionSources({ models: { 'speech-stt-v1': { indic: false } } }).indic).toBeUndefined();
    expect(speechRecognitionSources({ models: { 'speech-stt-v1': { indic: { dtype: 'fp32' } } } }).indic).toEqual({
      ...INDIC_SOURCES.int8,
      dtype: 'fp32',
    });
  });

  it('Shruti: per language where `languages` picks it, or engine=shruti; its sources overridable per language', async () => {
    const config = { indic: true, languages: { ta: 'shruti' as const, hi: 'shruti' as const }, shruti: ['ta', 'ur'] };
    expect(engineFor('ta', config)).toBe('shruti');
    // No Shruti source for Hindi configured here: the default family answers.
    expect(engineFor('hi', config)).toBe('indic-conformer');
    expect(engineFor('ur', config)).toBe('indic-conformer');
    expect(await routeTranscription({ task: 'transcribe', language: 'ta' }, config, never)).toEqual({
      engine: 'shruti',
      language: 'ta',
      source: 'request',
    });
    expect(await routeTranscription({ task: 'transcribe', language: 'ur', engine: 'shruti' }, config, never)).toEqual({
      engine: 'shruti',
      language: 'ur',
      source: 'request',
    });
    expect(await routeTranscription({ task: 'transcribe', engine: 'shruti' }, config, async () => 'ta')).toMatchObject({
      engine: 'shruti',
      language: 'ta',
      source: 'detected',
    });
    const error = await routeTranscription(
      { task: 'transcribe', language: 'fr', engine: 'shruti' },
      config,
      never,
    ).catch(toApiError);
    expect(error).toMatchObject({ status: 400, body: { error: { param: 'language', code: 'unsupported_value' } } });
    const translate = await routeTranscription(
      { task: 'translate', language: 'ta', engine: 'shruti' },
      config,
      never,
    ).catch(toApiError);
    expect(translate).toMatchObject({ status: 400, body: { error: { param: 'engine' } } });
    const off = await routeTranscription(
      { task: 'transcribe', language: 'ta', engine: 'shruti' },
      { ...config, shruti: [] },
      never,
    ).catch(toApiError);
    expect(off).toMatchObject({ status: 400 });

    const sources = speechRecognitionSources({
      models: { 'speech-stt-v1': { shruti: { ta: { baseURL: '/shruti-ta/' }, hi: { revision: 'abc' } } } },
    });
    expect(sources.shruti.ta).toEqual({ baseURL: '/shruti-ta/' });
    expect(sources.shruti.hi).toEqual({ repo: 'udgamlabs/Shruti-ONNX', revision: 'abc', folder: 'hi/sherpa-onnx/' });
    expect(Object.keys(sources.shruti).length).toBeGreaterThanOrEqual(10);
    expect(speechRecognitionSources({ models: { 'speech-stt-v1': { shruti: false } } }).shruti).toEqual({});
  });
});

describe('speech-stt-v1 in /v1/models: compact_models', () => {
  const info = (options: VaaniOptions) => {
    const hosts = {} as EngineHosts;
    const registry = { allow: async () => {}, read: async () => {} };
    return transcriptionEngines(options, hosts, registry)[0]!.info();
  };

  it("lists each language's compact model with the catalogue's size and licence; an app's own folder unsized; none when off", () => {
    const listed = info({}).compactModels!;
    expect(listed.map((model) => model.language)).toEqual([...SHRUTI_CODES]);
    expect(listed.find((model) => model.language === 'ta')).toEqual({
      language: 'ta',
      engine: 'shruti',
      name: 'Shruti Tamil',
      repo: 'udgamlabs/Shruti-ONNX',
      download_bytes: 32e6,
      license: 'Apache-2.0',
      commercial: true,
    });
    const own = info({
      models: { 'speech-stt-v1': { shruti: { ta: { baseURL: 'https://site.test/ta/' }, ks: { baseURL: '/ks/' } } } },
    });
    expect(own.compactModels!.find((model) => model.language === 'ta')).toMatchObject({
      download_bytes: null,
      repo: null,
    });
    expect(own.compactModels!.find((model) => model.language === 'ks')).toMatchObject({
      name: 'Shruti (ks)',
      license: null,
    });
    expect(info({ models: { 'speech-stt-v1': { shruti: false } } }).compactModels).toEqual([]);
  });
});
