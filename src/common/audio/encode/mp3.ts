import type { AudioResult } from '../../../protocol/speech';
import { EngineError, messageOf } from '../../../protocol/errors';
import { resample } from '../resample';
import { LAME_HOWTO } from './plugins';
import { toInt16 } from './wav';

/** The part of lamejs's API this encoder uses. */
interface LameModule {
  Mp3Encoder: new (
    channels: number,
    sampleRate: number,
    kbps: number,
  ) => {
    encodeBuffer(left: Int16Array): Int8Array | Uint8Array;
    flush(): Int8Array | Uint8Array;
  };
}

/** Rates MPEG-1, 2 and 2.5 Layer III can carry; other audio is resampled to 24 kHz, OpenAI's speech rate. */
const MP3_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000];
const KBPS = 64;
/** Samples per Layer III frame at these rates (MPEG-2: 576; MPEG-1: 1152); any multiple works. */
const BLOCK = 1152 * 16;

let loaded: { url: string; module: Promise<LameModule> } | undefined;

/**
 * Imports the optional MP3 plug-in (LGPL-3.0) at run time from `url`, never through the bundler, so
 * no build of the library or the app contains it unless the site serves it. A failed load is tried
 * again on the next request.
 */
export function loadLame(url: string): Promise<LameModule> {
  if (loaded?.url !== url) {
    const module = (import(/* @vite-ignore */ url) as Promise<Partial<LameModule>>).then((module) => {
      if (typeof module.Mp3Encoder !== 'function') throw new Error(`${url} exports no Mp3Encoder`);
      return module as LameModule;
    });
    const entry = { url, module };
    module.catch(() => {
      if (loaded === entry) loaded = undefined;
    });
    loaded = entry;
  }
  return loaded.module.catch((error: unknown) => {
    throw new EngineError(
      'unavailable',
      `The MP3 encoder plug-in could not be loaded from ${url} (${messageOf(error)}). To write mp3: ${LAME_HOWTO}.`,
      'encoder_plugin_failed',
      'response_format',
    );
  });
}

/** Mono speech as a constant-bitrate MP3 (64 kbps) at its own rate when MP3 carries it, else 24 kHz. */
export async function encodeMp3(url: string, audio: AudioResult): Promise<{ bytes: ArrayBuffer; sampleRate: number }> {
  const lame = await loadLame(url);
  const sampleRate = MP3_RATES.includes(audio.sampleRate) ? audio.sampleRate : 24_000;
  const samples = await resample(audio.samples, audio.sampleRate, sampleRate);
  const pcm = new Int16Array(samples.length);
  toInt16(samples, pcm.buffer, 0);
  const encoder = new lame.Mp3Encoder(1, sampleRate, KBPS);
  const parts: Uint8Array[] = [];
  const keep = (part: Int8Array | Uint8Array) => {
    if (part.length) parts.push(new Uint8Array(part.buffer, part.byteOffset, part.length));
  };
  for (let start = 0; start < pcm.length; start += BLOCK)
    keep(encoder.encodeBuffer(pcm.subarray(start, start + BLOCK)));
  keep(encoder.flush());
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  parts.reduce((offset, part) => (bytes.set(part, offset), offset + part.length), 0);
  return { bytes: bytes.buffer, sampleRate };
}
