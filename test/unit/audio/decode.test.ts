import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeWav } from '../../../src/common/audio/encode/wav';
import { decodeAudio } from '../../../src/common/audio/decode';
import { toApiError } from '../../../src/page/api/http/errors';
import { decodeMono, toMono } from '../../../src/common/audio/mono';
import { SHARED_DIR } from '../../support/shared';

const shared = (name: string) => new Uint8Array(readFileSync(`${SHARED_DIR}audio/${name}`));
const sine = (length: number, rate: number, hz: number) =>
  Float32Array.from({ length }, (_, i) => 0.5 * Math.sin((2 * Math.PI * hz * i) / rate));

describe('decodeAudio', () => {
  it('decodes the stereo FLAC and the MP3 clip', async () => {
    const flac = await decodeAudio(shared('jfk.flac'));
    expect(flac.sampleRate).toBe(44100);
    expect(flac.channels).toHaveLength(2);
    expect(flac.channels[0]!.length / 44100).toBeCloseTo(11, 0);
    const mp3 = await decodeAudio(shared('1272-141231-0002.mp3'));
    expect(mp3.sampleRate).toBe(16000);
    expect(mp3.channels[0]!.length / 16000).toBeGreaterThan(5);
  });

  it('round-trips a WAV it did not make itself', async () => {
    const samples = sine(8000, 8000, 200);
    const decoded = await decodeAudio(new Uint8Array(encodeWav({ samples, sampleRate: 8000 })));
    expect(decoded.sampleRate).toBe(8000);
    expect(decoded.channels[0]!.length).toBe(8000);
    const error = Math.max(...decoded.channels[0]!.map((value, i) => Math.abs(value - samples[i]!)));
    expect(error).toBeLessThan(1e-3);
  });

  it('refuses bytes that are not audio, headers with no samples, and audio over the limit', async () => {
    const text = new TextEncoder().encode('this is a text file, not audio at all');
    await expect(decodeAudio(text)).rejects.toMatchObject({ code: 'invalid_audio', param: 'file' });
    await expect(decodeAudio(new TextEncoder().encode('RIFF\0\0\0\0WAVEjunk'))).rejects.toMatchObject({
      code: 'invalid_audio',
    });
    await expect(decodeAudio(shared('jfk.flac'), { maxSeconds: 5 })).rejects.toMatchObject({
      code: 'audio_too_long',
    });
  });

  it("refuses an empty recording and audio under minSeconds as 400 audio_too_short (OpenAI's 0.1 s minimum)", async () => {
    const empty = new Uint8Array(encodeWav({ samples: new Float32Array(0), sampleRate: 16000 }));
    expect(empty.length).toBe(44);
    const error = await decodeAudio(empty, { minSeconds: 0.1 }).catch((e: unknown) => e);
    expect(toApiError(error).status).toBe(400);
    expect(toApiError(error).body.error).toMatchObject({
      code: 'audio_too_short',
      param: 'file',
      type: 'invalid_request_error',
    });
    expect((error as Error).message).toMatch(/holds no audio samples.*Minimum audio length is 0\.1 seconds/);
    const short = new Uint8Array(encodeWav({ samples: sine(800, 16000, 200), sampleRate: 16000 }));
    await expect(decodeAudio(short, { minSeconds: 0.1 })).rejects.toMatchObject({
      code: 'audio_too_short',
      message: expect.stringMatching(/lasts 0\.050 s/),
    });
    const enough = new Uint8Array(encodeWav({ samples: sine(1600, 16000, 200), sampleRate: 16000 }));
    expect((await decodeAudio(enough, { minSeconds: 0.1 })).channels[0]).toHaveLength(1600);
    // Without a minimum (the voice routes), short audio decodes; an empty file is still undecodable.
    expect((await decodeAudio(short)).channels[0]).toHaveLength(800);
    await expect(decodeAudio(empty)).rejects.toMatchObject({ code: 'invalid_audio' });
  });

  it('maps audio problems to a 400 naming the file', async () => {
    const error = await decodeAudio(new TextEncoder().encode('not audio')).catch((e: unknown) => e);
    expect(toApiError(error).status).toBe(400);
    expect(toApiError(error).body.error).toMatchObject({
      code: 'invalid_audio',
      param: 'file',
      type: 'invalid_request_error',
    });
    expect(toApiError(new Error('boom')).status).toBe(500);
  });
});

describe('toMono and decodeMono', () => {
  it('averages channels', () => {
    expect([...toMono([new Float32Array([1, 0]), new Float32Array([0, 1])])]).toEqual([0.5, 0.5]);
  });

  it('gives 16 kHz mono of the stereo 44.1 kHz FLAC, same duration', async () => {
    const mono = await decodeMono(shared('jfk.flac'), 16000);
    expect(mono.sampleRate).toBe(16000);
    expect(mono.sourceRate).toBe(44100);
    expect(mono.samples.length).toBe(Math.round((485100 * 16000) / 44100));
  });
});
