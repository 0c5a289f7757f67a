import { describe, expect, it } from 'vitest';
import type { SpeechFormat } from '../../../../src/protocol/speech';
import type { EngineFactory } from '../../../../src/page/engines/_registry';
import { AUTH, BASE, service } from '../helpers';

/** A speech engine whose worker says it can write `formats`. */
function speechWith(formats: SpeechFormat[]) {
  let asked = 0;
  const factory: EngineFactory<'speech'> = {
    kind: 'speech',
    models: ['speech-tts-v1'],
    info: () => ({ backends: ['wasm'] }),
    voices: () => [],
    create: () => ({
      voices: () => [],
      speak: async () => {
        throw new Error('not used');
      },
      formats: async () => (asked++, formats),
      dispose() {},
    }),
  };
  return { factory, asked: () => asked };
}

describe('GET /v1/audio/speech/formats', () => {
  it("lists the local speech engine's formats; other methods are 405", async () => {
    const speech = speechWith(['wav', 'pcm', 'flac', 'opus']);
    const ai = service({}, [speech.factory]);
    const response = await ai.fetch(`${BASE}/audio/speech/formats`, { headers: AUTH });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ object: 'list', data: ['wav', 'pcm', 'flac', 'opus'] });
    expect(speech.asked()).toBe(1);
    const post = await ai.fetch(`${BASE}/audio/speech/formats`, { method: 'POST', headers: AUTH });
    expect(post.status).toBe(405);
  });

  it("routed remote-only: OpenAI's whole list; no local engine and no remote: 503", async () => {
    const remote = service({ remote: { baseURL: 'https://remote.test/v1' }, routing: 'remote-only' }, [
      speechWith(['wav']).factory,
    ]);
    const listed = await (await remote.fetch(`${BASE}/audio/speech/formats`, { headers: AUTH })).json();
    expect(listed.data).toEqual(['wav', 'pcm', 'flac', 'opus', 'aac', 'mp3']);
    const none = await service().fetch(`${BASE}/audio/speech/formats`, { headers: AUTH });
    expect(none.status).toBe(503);
    expect((await none.json()).error).toMatchObject({ code: 'model_unavailable' });
  });
});
