import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { decodeAudio } from '../../../src/common/audio/decode';
import { availableFormats, encodeAudio, FormatUnavailable } from '../../../src/common/audio/encode';
import { toApiError } from '../../../src/page/api/http/errors';
import { Pcm16Builder, pcm16Audio } from '../../../src/common/audio/pcm16';
import { encodeWav } from '../../../src/common/audio/encode/wav';
import type { EncodedAudio } from '../../../src/protocol/speech';

/** The optional MP3 plug-in as a page would serve it: @breezystack/lamejs's dist/lamejs.js, by URL. */
const LAME_URL = pathToFileURL(
  createRequire(import.meta.url)
    .resolve('@breezystack/lamejs')
    .replace(/lamejs\.[a-z.]*js$/, 'lamejs.js'),
).href;

const tone = (rate: number, seconds: number) => ({
  samples: Float32Array.from({ length: rate * seconds }, (_, i) => 0.5 * Math.sin((2 * Math.PI * 220 * i) / rate)),
  sampleRate: rate,
});

/** The encoded file: its chunks joined. */
function bytesOf({ chunks }: EncodedAudio): ArrayBuffer {
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out.buffer;
}

describe('encodeAudio', () => {
  it('wav: a 16-bit mono RIFF file at the voice rate', async () => {
    const encoded = await encodeAudio(tone(22050, 1), 'wav');
    expect(encoded).toMatchObject({ contentType: 'audio/wav', sampleRate: 22050 });
    const bytes = bytesOf(encoded);
    const view = new DataView(bytes);
    expect(String.fromCharCode(...new Uint8Array(bytes, 0, 4))).toBe('RIFF');
    expect(view.getUint32(24, true)).toBe(22050);
    expect(view.getUint32(40, true)).toBe(22050 * 2);
  });

  it('wav: each sample clipped to [-1, 1] and scaled to 16 bits, little-endian', async () => {
    const samples = Float32Array.from([-1.5, -1, -0.5, -1e-6, 0, 0.25, 1, 1.5, Number.NaN]);
    const encoded = await encodeAudio({ samples, sampleRate: 8000 }, 'wav');
    const view = new DataView(bytesOf(encoded));
    const written = Array.from(samples, (_, i) => view.getInt16(44 + 2 * i, true));
    expect(written).toEqual([-32768, -32768, -16384, 0, 0, 8191, 32767, 32767, 0]);
  });

  it("wav from an engine's 16-bit samples: exactly those samples, no float round trip computed", async () => {
    const pcm16 = Int16Array.from([-32768, -12345, -1, 0, 1, 12345, 32767]);
    const audio = pcm16Audio(pcm16, 22050);
    const lazy = Object.getOwnPropertyDescriptor(audio, 'samples')!.get!;
    let computed = 0;
    Object.defineProperty(audio, 'samples', { get: () => (computed++, lazy.call(audio)) });
    const encoded = await encodeAudio(audio, 'wav');
    expect(computed).toBe(0);
    const bytes = bytesOf(encoded);
    expect(new DataView(bytes).getUint32(40, true)).toBe(pcm16.length * 2);
    expect([...new Int16Array(bytes, 44)]).toEqual([...pcm16]);
    // Other formats read the floats, computed once on demand.
    expect([...audio.samples]).toEqual(Array.from(pcm16, (s) => s / 32768));
    expect(computed).toBe(1);
  });

  it("wav from an engine's 16-bit samples: the header, then the samples' own buffer, nothing copied", async () => {
    const out = new Pcm16Builder();
    out.push(Int16Array.from({ length: 70_000 }, (_, i) => (i % 2000) - 1000));
    const pcm16 = out.result();
    const encoded = await encodeAudio(pcm16Audio(pcm16, 22050), 'wav');
    expect(encoded.chunks.map((chunk) => chunk.byteLength)).toEqual([44, pcm16.byteLength]);
    expect(encoded.chunks[1]!.buffer).toBe(pcm16.buffer);
    expect(encoded.chunks[1]!.byteOffset).toBe(pcm16.byteOffset);
    // The same file as the one-buffer encoding.
    expect(new Uint8Array(bytesOf(encoded))).toEqual(
      new Uint8Array(encodeWav({ samples: new Float32Array(), pcm16, sampleRate: 22050 })),
    );
  });

  it('pcm: raw 16-bit little-endian at 24 kHz, the same duration and level', async () => {
    const encoded = await encodeAudio(tone(22050, 1), 'pcm');
    expect(encoded).toMatchObject({ contentType: 'audio/pcm', sampleRate: 24000 });
    const samples = new Int16Array(bytesOf(encoded));
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

  it('mp3 without a browser encoder: 400-worthy FormatUnavailable that says how to turn the plug-in on', async () => {
    const error = await encodeAudio(tone(24000, 0.5), 'mp3').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FormatUnavailable);
    expect((error as FormatUnavailable).available).not.toContain('mp3');
    expect((error as Error).message).toMatch(/models: \{ lamejs: \{ baseURL \} \}/);
    expect(await availableFormats()).not.toContain('mp3');
  });

  it('mp3 through the LGPL plug-in loaded by URL: an MPEG file that decodes to the same duration (plus the codec delay) and level', async () => {
    expect(await availableFormats({ mp3: LAME_URL })).toContain('mp3');
    for (const rate of [22050, 24000, 16000]) {
      const encoded = await encodeAudio(tone(rate, 2), 'mp3', { mp3: LAME_URL });
      expect(encoded).toMatchObject({ contentType: 'audio/mpeg', sampleRate: rate });
      const decoded = await decodeAudio(new Uint8Array(bytesOf(encoded)));
      expect(decoded.sampleRate).toBe(rate);
      // Longer only by LAME's encoder delay (1,105 samples) and the last frame's padding, as any MP3 without a gapless header.
      const extra = decoded.channels[0]!.length - 2 * rate;
      expect(extra).toBeGreaterThanOrEqual(0);
      expect(extra / rate).toBeLessThan(0.1);
      // The tone's level (RMS 0.354, over the slightly longer decoded audio).
      const rms = Math.sqrt(decoded.channels[0]!.reduce((sum, s) => sum + s * s, 0) / decoded.channels[0]!.length);
      expect(rms).toBeGreaterThan(0.3);
      expect(rms).toBeLessThan(0.37);
    }
  });

  it('mp3 with a plug-in URL that does not load: not listed, and a 503 encoder_plugin_failed naming the URL', async () => {
    const missing = pathToFileURL('/nonexistent/lamejs.js').href;
    expect(await availableFormats({ mp3: missing })).not.toContain('mp3');
    const error = await encodeAudio(tone(24000, 0.5), 'mp3', { mp3: missing }).catch((e: unknown) => e);
    expect(toApiError(error)).toMatchObject({ status: 503, code: 'encoder_plugin_failed' });
    expect((error as Error).message).toContain(missing);
  });
});

describe('Pcm16Builder', () => {
  it('appends, pads with silence and drops a tail across its growth', () => {
    const out = new Pcm16Builder();
    const block = Int16Array.from({ length: 50_000 }, (_, i) => (i % 100) - 50);
    out.push(block);
    out.silence(30_000);
    out.push(block);
    expect(out.length).toBe(130_000);
    const all = out.result();
    expect([...all.subarray(0, 50_000)]).toEqual([...block]);
    expect(all.subarray(50_000, 80_000).every((s) => s === 0)).toBe(true);
    expect([...all.subarray(80_000)]).toEqual([...block]);
    // The last sample at least 49 in magnitude is at 129,999 (-50 + 99 = 49); none above 60.
    expect(out.endAbove(80_000, 49)).toBe(130_000);
    expect(out.endAbove(80_000, 61)).toBe(80_000);
    out.length = 60_000;
    out.silence(10);
    expect(
      out
        .result()
        .subarray(50_000)
        .every((s) => s === 0),
    ).toBe(true);
  });
});
