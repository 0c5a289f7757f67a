import { decodeChunked } from 'audio-decode';
import audioType from 'audio-type';
import { EngineError, invalidInput, messageOf } from '../../protocol/errors';

/** Longest audio the service accepts, in seconds (10 minutes). */
export const MAX_AUDIO_SECONDS = 600;

/** Decoded audio: one Float32Array per channel (all the same length), samples in [-1, 1]. */
export interface DecodedAudio {
  channels: Float32Array[];
  sampleRate: number;
}

export interface DecodeOptions {
  /** Longer audio is refused (`audio_too_long`) while decoding. Default MAX_AUDIO_SECONDS. */
  maxSeconds?: number;
  /** Shorter audio, an empty file included, is refused (`audio_too_short`). Default none. */
  minSeconds?: number;
}

type Format = Parameters<typeof decodeChunked>[1];
const FORMATS: readonly string[] = [
  'wav',
  'flac',
  'mp3',
  'oga',
  'opus',
  'webm',
  'mkv',
  'm4a',
  'mp4',
  'aac',
  'aiff',
  'caf',
  'qoa',
];
const CHUNK_BYTES = 256 * 1024;

function* chunks(bytes: Uint8Array): Generator<Uint8Array> {
  for (let start = 0; start < bytes.length; start += CHUNK_BYTES) yield bytes.subarray(start, start + CHUNK_BYTES);
}

async function* streamOf(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield* chunks(bytes);
}

const invalid = (message: string) => invalidInput(message, 'file', 'invalid_audio');

/**
 * Decodes a whole audio file (wav, flac, mp3, ogg vorbis/opus, webm, m4a, ...) to float channels.
 * Runs anywhere, including workers (no Web Audio needed). Throws an EngineError naming `file`:
 * `invalid_audio` for bytes that are not decodable audio, `audio_too_long` (too_large) past maxSeconds,
 * `audio_too_short` under minSeconds.
 */
export async function decodeAudio(bytes: Uint8Array, options: DecodeOptions = {}): Promise<DecodedAudio> {
  const maxSeconds = options.maxSeconds ?? MAX_AUDIO_SECONDS;
  const format = audioType(bytes);
  if (!format || !FORMATS.includes(format)) {
    throw invalid('The file is not audio in a supported format (wav, flac, mp3, ogg, opus, webm, m4a, aac, aiff).');
  }
  const parts: Float32Array[][] = [];
  let length = 0;
  let sampleRate = 0;
  try {
    for await (const piece of decodeChunked(streamOf(bytes), format as Format)) {
      sampleRate = piece.sampleRate;
      parts.push(piece.channelData);
      length += piece.channelData[0]!.length;
      if (length > maxSeconds * sampleRate) {
        throw new EngineError(
          'too_large',
          `The audio is longer than the limit of ${maxSeconds} seconds.`,
          'audio_too_long',
          'file',
        );
      }
    }
  } catch (error) {
    if (error instanceof EngineError) throw error;
    throw invalid(`The ${format} file could not be decoded: ${messageOf(error)}`);
  }
  const minSeconds = options.minSeconds;
  if (minSeconds !== undefined && (length === 0 || length < minSeconds * sampleRate)) {
    const held =
      length === 0
        ? 'it holds no audio samples (an empty recording, such as one in which VAD heard no speech)'
        : `it lasts ${(length / sampleRate).toFixed(3)} s`;
    throw invalidInput(
      `Audio file is too short: ${held}. Minimum audio length is ${minSeconds} seconds.`,
      'file',
      'audio_too_short',
    );
  }
  if (length === 0 || sampleRate <= 0) throw invalid(`The ${format} file holds no decodable audio samples.`);
  return { channels: join(parts, length), sampleRate };
}

/** Concatenates decoded pieces; a piece with fewer channels (a mono stretch of stereo) is repeated across them. */
function join(parts: Float32Array[][], length: number): Float32Array[] {
  const count = Math.max(...parts.map((piece) => piece.length));
  const channels = Array.from({ length: count }, () => new Float32Array(length));
  let offset = 0;
  for (const piece of parts) {
    channels.forEach((channel, i) => channel.set(piece[i % piece.length]!, offset));
    offset += piece[0]!.length;
  }
  return channels;
}
