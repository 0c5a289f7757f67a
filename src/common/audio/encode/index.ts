import type { AudioResult, EncodedAudio, EncoderPlugins, SpeechFormat } from '../../../protocol/speech';
import { SPEECH_FORMATS } from '../../../protocol/speech';
import { canEncode, COMPRESSED, encodeCompressed, type CompressedFormat } from './compressed';
import { encodeMp3, loadLame } from './mp3';
import { LAME_HOWTO } from './plugins';
import { encodePcm, PCM_RATE } from './pcm';
import { wavChunks } from './wav';

/** A format this browser cannot write; names the ones it can (and, for mp3, how to turn it on). */
export class FormatUnavailable extends Error {
  override name = 'FormatUnavailable';
  constructor(
    readonly format: SpeechFormat,
    readonly available: SpeechFormat[],
  ) {
    super(
      `This browser cannot encode '${format}' speech (no encoder for it here). Formats it can write: ${available.join(', ')}.` +
        (format === 'mp3' ? ` To write mp3, serve the optional LGPL MP3 plug-in: ${LAME_HOWTO}.` : ''),
    );
  }
}

const isCompressed = (format: SpeechFormat): format is CompressedFormat => format in COMPRESSED;

/** Whether the MP3 plug-in is configured and loads. */
const pluginLoads = (plugins: EncoderPlugins) =>
  plugins.mp3
    ? loadLame(plugins.mp3).then(
        () => true,
        () => false,
      )
    : Promise.resolve(false);

/** Whether this browser can write `format`: its own encoder (WebCodecs or one registered here), or for mp3 the plug-in. */
async function canWrite(format: SpeechFormat, plugins: EncoderPlugins): Promise<boolean> {
  if (!isCompressed(format)) return true;
  if (await canEncode(format)) return true;
  return format === 'mp3' && pluginLoads(plugins);
}

/** The formats this browser can write now. */
export async function availableFormats(plugins: EncoderPlugins = {}): Promise<SpeechFormat[]> {
  const checks = await Promise.all(SPEECH_FORMATS.map((format) => canWrite(format, plugins)));
  return SPEECH_FORMATS.filter((_, i) => checks[i]);
}

/** Encodes mono speech as `format`; throws FormatUnavailable where this browser has no encoder for it. */
export async function encodeAudio(
  audio: AudioResult,
  format: SpeechFormat,
  plugins: EncoderPlugins = {},
): Promise<EncodedAudio> {
  if (format === 'wav') return { chunks: wavChunks(audio), contentType: 'audio/wav', sampleRate: audio.sampleRate };
  if (format === 'pcm')
    return { chunks: [new Uint8Array(await encodePcm(audio))], contentType: 'audio/pcm', sampleRate: PCM_RATE };
  const spec = COMPRESSED[format];
  if (await canEncode(format)) {
    const chunks = [new Uint8Array(await encodeCompressed(format, audio))];
    return { chunks, contentType: spec.contentType, sampleRate: 'rate' in spec ? spec.rate : audio.sampleRate };
  }
  if (format === 'mp3' && plugins.mp3) {
    const { bytes, sampleRate } = await encodeMp3(plugins.mp3, audio);
    return { chunks: [new Uint8Array(bytes)], contentType: 'audio/mpeg', sampleRate };
  }
  throw new FormatUnavailable(format, await availableFormats(plugins));
}
