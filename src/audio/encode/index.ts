import type { AudioResult, EncodedAudio, SpeechFormat } from '../../protocol/audio';
import { SPEECH_FORMATS } from '../../protocol/audio';
import { canEncode, COMPRESSED, encodeCompressed, type CompressedFormat } from './compressed';
import { encodePcm, PCM_RATE } from './pcm';
import { encodeWav } from './wav';

/** A format this browser cannot write; names the ones it can. */
export class FormatUnavailable extends Error {
  override name = 'FormatUnavailable';
  constructor(
    readonly format: SpeechFormat,
    readonly available: SpeechFormat[],
  ) {
    super(
      `This browser cannot encode '${format}' speech (no encoder for it here). Formats it can write: ${available.join(', ')}.`,
    );
  }
}

const isCompressed = (format: SpeechFormat): format is CompressedFormat => format in COMPRESSED;

/** The formats this browser can write now. */
export async function availableFormats(): Promise<SpeechFormat[]> {
  const checks = await Promise.all(SPEECH_FORMATS.map((f) => (isCompressed(f) ? canEncode(f) : true)));
  return SPEECH_FORMATS.filter((_, i) => checks[i]);
}

/** Encodes mono speech as `format`; throws FormatUnavailable where this browser has no encoder for it. */
export async function encodeAudio(audio: AudioResult, format: SpeechFormat): Promise<EncodedAudio> {
  if (format === 'wav') return { bytes: encodeWav(audio), contentType: 'audio/wav', sampleRate: audio.sampleRate };
  if (format === 'pcm') return { bytes: await encodePcm(audio), contentType: 'audio/pcm', sampleRate: PCM_RATE };
  if (!(await canEncode(format))) throw new FormatUnavailable(format, await availableFormats());
  const spec = COMPRESSED[format];
  const bytes = await encodeCompressed(format, audio);
  return { bytes, contentType: spec.contentType, sampleRate: 'rate' in spec ? spec.rate : audio.sampleRate };
}
