import { describe, expect, it } from 'vitest';
import { encodeAudio, FormatUnavailable } from '../../../src/audio/encode';

const tone = (rate: number, seconds: number) => ({
  samples: Float32Array.from({ length: rate * seconds }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 220 * i) / rate)),
  sampleRate: rate,
});

describe('encodeAudio', () => {
  it('wav: a 16-bit mono RIFF file at the voice rate', async () => {
    const encoded = await encodeAudio(tone(22050, 1), 'wav');
    expect(encoded).toMatchObject({ contentType: 'audio/wav', sampleRate: 22050 });
    const view = new DataView(encoded.bytes);
    expect(String.fromCharCode(...new Uint8Array(encoded.bytes, 0, 4))).toBe('RIFF');
    expect(view.getUint32(24, true)).toBe(22050);
    expect(view.getUint32(40, true)).toBe(22050 * 2);
  });

  it('wav: each sample clipped to [-1, 1] and scaled to 16 bits, little-endian', async () => {
    const samples = Float32Array.from([-1.5, -1, -0.5, -1e-6, 0, 0.25, 1, 1.5, Number.NaN]);
    const encoded = await encodeAudio({ samples, sampleRate: 8000 }, 'wav');
    const view = new DataView(encoded.bytes);
    const written = Array.from(samples, (_, i) => view.getInt16(44 + 2 * i, true));
    expect(written).toEqual([-32768, -32768, -16384, 0, 0, 8191, 32767, 32767, 0]);
  });

  it('pcm: raw 16-bit little-endian at 24 kHz, the same duration and level', async () => {
    const encoded = await encodeAudio(tone(22050, 1), 'pcm');
    expect(encoded).toMatchObject({ contentType: 'audio/pcm', sampleRate: 24000 });
    const samples = new Int16Array(encoded.bytes);
    expect(samples.length).toBe(24000);
    const peak = samples.reduce((max, s) => Math.max(max, Math.abs(s)), 0) / 0x7fff;
    expect(peak).toBeGreaterThan(0.45);
    expect(peak).toBeLessThan(0.55);
  });

  it('a format without an encoder here is a FormatUnavailable naming the formats that work', async () => {
    // Node has no WebCodecs: opus, aac and mp3 have no encoder; wav and pcm always do.
    const error = await encodeAudio(tone(16000, 0.1), 'opus').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatUnavailable);
    expect((error as FormatUnavailable).available).toEqual(expect.arrayContaining(['wav', 'pcm']));
    expect((error as FormatUnavailable).available).not.toContain('opus');
    expect((error as Error).message).toMatch(/cannot encode 'opus'.*Formats it can write: wav, pcm/);
  });
});
