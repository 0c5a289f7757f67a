import type { AudioCodec, OutputFormat } from 'mediabunny';
import type { AudioResult } from '../../../protocol/speech';
import { resample } from '../resample';

/** A compressed speech format: its codec, container and the rate it is encoded at. */
interface Compressed {
  codec: AudioCodec;
  container: (mb: typeof import('mediabunny')) => OutputFormat;
  contentType: string;
  /** Opus and AAC run at 48 kHz here; FLAC keeps the voice's own rate (it is lossless). */
  rate?: number;
  /**
   * An encoder this library brings and prefers to the browser's: libFLAC (WASM), since WebCodecs
   * mostly has no FLAC encoder and Chromium's, where present, drops the last block's samples.
   */
  own?: () => Promise<void>;
}

export const COMPRESSED = {
  flac: {
    codec: 'flac',
    container: (mb) => new mb.FlacOutputFormat(),
    contentType: 'audio/flac',
    own: async () => (await import('@mediabunny/flac-encoder')).registerFlacEncoder(),
  },
  opus: { codec: 'opus', container: (mb) => new mb.OggOutputFormat(), contentType: 'audio/ogg', rate: 48_000 },
  aac: { codec: 'aac', container: (mb) => new mb.AdtsOutputFormat(), contentType: 'audio/aac', rate: 48_000 },
  mp3: { codec: 'mp3', container: (mb) => new mb.Mp3OutputFormat(), contentType: 'audio/mpeg', rate: 48_000 },
} satisfies Record<string, Compressed>;

export type CompressedFormat = keyof typeof COMPRESSED;

let registered: Promise<void> | undefined;

/** Whether this browser (WebCodecs, or an encoder registered here) can write `format`. */
export async function canEncode(format: CompressedFormat): Promise<boolean> {
  const mb = await import('mediabunny');
  // mediabunny uses a registered encoder before the browser's.
  registered ??= Promise.all((Object.values(COMPRESSED) as Compressed[]).map((spec) => spec.own?.())).then(() => {});
  await registered;
  const { codec, rate } = COMPRESSED[format] as Compressed;
  return mb.canEncodeAudio(codec, { numberOfChannels: 1, sampleRate: rate ?? 24_000, quality: mb.QUALITY_HIGH });
}

/** Encodes mono speech with mediabunny: WebCodecs' encoder (or a registered one), then the container. */
export async function encodeCompressed(format: CompressedFormat, audio: AudioResult): Promise<ArrayBuffer> {
  const mb = await import('mediabunny');
  const spec = COMPRESSED[format] as Compressed;
  const sampleRate = spec.rate ?? audio.sampleRate;
  const samples = await resample(audio.samples, audio.sampleRate, sampleRate);
  const target = new mb.BufferTarget();
  const output = new mb.Output({ format: spec.container(mb), target });
  const source = new mb.AudioSampleSource({ codec: spec.codec, quality: mb.QUALITY_HIGH });
  output.addAudioTrack(source);
  await output.start();
  const sample = new mb.AudioSample({ data: samples, format: 'f32', numberOfChannels: 1, sampleRate, timestamp: 0 });
  await source.add(sample);
  sample.close();
  await output.finalize();
  return target.buffer!;
}
