import { encodeWav } from '../../../src/common/audio/encode/wav';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { SpeechParams, Voice } from '../../../src/protocol/speech';
import type { EngineFactory } from '../../../src/page/engines/_registry';
import { VOICE_ALIASES } from '../../../src/catalogue/voice-aliases';
import { VOICES } from '../../../src/catalogue/voices';
import { AUTH, BASE, postJson, service } from './helpers';

const voice = (id: string): Voice => ({
  id,
  name: id,
  language: 'English',
  languageCode: 'en-US',
  gender: 'female',
  model: 'speech-tts-v1',
  license: 'GPL-3.0-or-later',
  commercial: true,
});

/** A speech engine that records what it is asked and answers 0.1 s of silence. */
function recordingSpeech() {
  const seen: SpeechParams[] = [];
  const voices = VOICES.map((v) => voice(v.id));
  const factory: EngineFactory<'speech'> = {
    kind: 'speech',
    models: ['speech-tts-v1'],
    info: () => ({ backends: ['wasm'] }),
    voices: () => voices,
    create: () => ({
      voices: () => voices,
      speak: async (params) => {
        seen.push(params);
        return {
          chunks: [new Uint8Array(encodeWav({ samples: new Float32Array(2400), sampleRate: 24000 }))],
          contentType: 'audio/wav',
          sampleRate: 24000,
        };
      },
      formats: async () => ['wav'],
      dispose() {},
    }),
  };
  return { factory, seen };
}

describe("OpenAI's model and voice names", () => {
  it('/v1/models lists each model with its aliases; an alias id answers as its model', async () => {
    const ai = service();
    const { data } = await (await ai.fetch(`${BASE}/models`, { headers: AUTH })).json();
    const byId = Object.fromEntries(data.map((m: { id: string; aliases: string[] }) => [m.id, m.aliases]));
    expect(byId['speech-tts-v1']).toEqual(['tts-1', 'tts-1-hd', 'gpt-4o-mini-tts']);
    expect(byId['speech-stt-v1']).toEqual(['whisper-1', 'gpt-4o-transcribe', 'gpt-4o-mini-transcribe']);
    expect(byId['chat-v2']).toEqual([]);
    const one = await (await ai.fetch(`${BASE}/models/whisper-1`, { headers: AUTH })).json();
    expect(one.id).toBe('speech-stt-v1');
  });

  it('every voice alias names a catalogue voice', () => {
    const ids = new Set(VOICES.map((v) => v.id));
    expect(Object.keys(VOICE_ALIASES).sort()).toEqual(
      ['alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer', 'verse'].sort(),
    );
    for (const target of Object.values(VOICE_ALIASES)) expect(ids.has(target)).toBe(true);
  });

  it('tts-1 with alloy speaks through the openai SDK on the local voice the alias names', async () => {
    const { factory, seen } = recordingSpeech();
    const ai = service({}, [factory]);
    const client = new OpenAI({ baseURL: BASE, apiKey: 'k', fetch: ai.fetch });
    const { data: audio, response } = await client.audio.speech
      .create({ model: 'tts-1', voice: 'alloy', input: 'Hello' })
      .withResponse();
    expect(response.headers.get('x-vaani-backend')).toBe('wasm');
    expect((await audio.arrayBuffer()).byteLength).toBe(44 + 2400 * 2);
    expect(seen[0]).toMatchObject({ model: 'speech-tts-v1', voice: 'en-US-female-1', input: 'Hello' });
    const voices = await (await ai.fetch(`${BASE}/voices`, { headers: AUTH })).json();
    expect(voices.voices.find((v: { id: string }) => v.id === 'en-US-female-1').aliases).toEqual(['alloy', 'nova']);
  });

  it('a catalogue model of the wrong kind on an audio route is a 400 model_not_supported, not a 503', async () => {
    const ai = service();
    const speech = await ai.fetch(`${BASE}/audio/speech`, postJson({ model: 'whisper-1', voice: 'alloy', input: 'x' }));
    expect(speech.status).toBe(400);
    expect((await speech.json()).error).toMatchObject({ code: 'model_not_supported', param: 'model' });
    for (const model of ['speech-tts-v1', 'chat-v2']) {
      const form = new FormData();
      form.set('file', new File([new Uint8Array(8)], 'a.wav'));
      form.set('model', model);
      const res = await ai.fetch(`${BASE}/audio/transcriptions`, { method: 'POST', headers: AUTH, body: form });
      expect(res.status, model).toBe(400);
      expect((await res.json()).error.code).toBe('model_not_supported');
    }
  });
});

describe("OpenAI's voice names on the audio-to-audio routes", () => {
  it('voice-changer and speech-to-speech take alloy as the local voice it names', async () => {
    const seen: { operation: string; voice?: string }[] = [];
    const voices = VOICES.map((v) => voice(v.id));
    const silence = async () => ({ samples: new Float32Array(160), sampleRate: 16000 });
    const factory: EngineFactory<'transform'> = {
      kind: 'transform',
      models: ['speech-v1-turbo', 'speech-tts-v1'],
      info: () => ({ backends: ['wasm'] }),
      voices: () => voices,
      create: () => ({
        voices: () => voices,
        isolate: silence,
        changeVoice: async (params) => (seen.push({ operation: 'changeVoice', voice: params.voice }), silence()),
        speechToSpeech: async (params) => (seen.push({ operation: 'speechToSpeech', voice: params.voice }), silence()),
        dispose() {},
      }),
    };
    const ai = service({}, [factory]);
    for (const [route, name] of [
      ['voice-changer', 'alloy'],
      ['speech-to-speech', 'onyx'],
      ['voice-changer', 'no-such-voice'],
    ]) {
      const form = new FormData();
      form.set('file', new File([encodeWav({ samples: new Float32Array(160), sampleRate: 16000 })], 'a.wav'));
      form.set('voice', name!);
      const res = await ai.fetch(`${BASE}/audio/${route}`, { method: 'POST', headers: AUTH, body: form });
      if (name === 'no-such-voice') {
        expect(res.status).toBe(404);
        expect((await res.json()).error).toMatchObject({ code: 'voice_not_found', param: 'voice' });
      } else expect(res.status, route).toBe(200);
    }
    expect(seen).toEqual([
      { operation: 'changeVoice', voice: 'en-US-female-1' },
      { operation: 'speechToSpeech', voice: 'en-US-male-1' },
    ]);
  });
});
