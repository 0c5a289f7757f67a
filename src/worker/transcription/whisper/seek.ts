import type { DecodeRequest, WhisperDecoder } from './decoder';
import { decodeWithFallback, type GuardedPass, type WhisperGuards } from './guards';

/** One generated token and the decoding pass it came from. */
export interface PassToken {
  token: number;
  pass: number;
}

export interface Pass {
  /** Where the pass started in the window, in mel frames (100 per second). */
  seek: number;
  avgLogprob: number;
  noSpeechProb: number;
  /** The temperature the kept attempt was decoded at (after any fallback). */
  temperature: number;
  compressionRatio: number;
}

export interface WindowTokens {
  tokens: PassToken[];
  passes: Pass[];
}

export interface WindowRequest extends Omit<DecodeRequest, 'prefix'> {
  /** The prompt of the next pass: previous text, then `<|startoftranscript|>`, language, task. */
  prefix(): number[];
  guards: WhisperGuards;
  /** Text of text tokens (for the compression ratio). */
  textOf(tokens: number[]): string;
  /** Told each kept pass's tokens and temperature, in order (the previous text of the next prompt). */
  decoded(tokens: number[], temperature: number): void;
}

const INPUT_STRIDE = 2;

/** The window's features from `seek` on, zero-padded back to the full window. */
function shiftFeatures(features: Float32Array, mels: number, seek: number): Float32Array {
  if (seek === 0) return features;
  const frames = features.length / mels;
  const shifted = new Float32Array(features.length);
  for (let m = 0; m < mels; m++) shifted.set(features.subarray(m * frames + seek, (m + 1) * frames), m * frames);
  return shifted;
}

/** Encodes the window from `seek` once and decodes it with temperature fallback. */
async function pass(
  decoder: WhisperDecoder,
  features: Float32Array,
  seek: number,
  request: WindowRequest,
): Promise<GuardedPass> {
  const encoded = await decoder.encode(shiftFeatures(features, decoder.config.melBins, seek));
  request.progress?.();
  const prefix = request.prefix();
  try {
    return await decodeWithFallback(
      (temperature) => decoder.decode(encoded, { ...request, prefix, temperature }),
      (tokens) => request.textOf(tokens.filter((token) => token < decoder.config.ids.eot)),
      request.guards,
      request.temperature,
    );
  } finally {
    encoded.dispose();
  }
}

const passInfo = (seek: number, result: GuardedPass): Pass => ({
  seek,
  avgLogprob: result.avgLogprob,
  noSpeechProb: result.noSpeechProb,
  temperature: result.temperature,
  compressionRatio: result.compressionRatio,
});

/**
 * Decodes one 30 s window. With timestamps it seeks as Whisper does: when a pass stops at a
 * segment boundary before the window's end, decoding restarts from that boundary, and the
 * timestamps of each pass are shifted by where it started. A pass the guards judge silent ends
 * the window without text.
 */
export async function decodeWindow(
  decoder: WhisperDecoder,
  features: Float32Array,
  request: WindowRequest,
): Promise<WindowTokens> {
  if (!request.timestamps) {
    const result = await pass(decoder, features, 0, request);
    if (result.silent) return { tokens: [], passes: [] };
    request.decoded(result.tokens, result.temperature);
    return { tokens: result.tokens.map((token) => ({ token, pass: 0 })), passes: [passInfo(0, result)] };
  }
  const { timestampBegin } = decoder.config.ids;
  const totalFrames = features.length / decoder.config.melBins;
  const tokens: PassToken[] = [];
  const passes: Pass[] = [];
  for (let seek = 0; seek < totalFrames;) {
    const result = await pass(decoder, features, seek, request);
    const generated = result.tokens;
    if (generated.length === 0 || result.silent) break;
    const isTimestamp = generated.map((token) => token >= timestampBegin);
    const singleTimestampEnding = generated.length >= 2 && isTimestamp.at(-1) && !isTimestamp.at(-2);
    const boundaries = generated.slice(0, -1).flatMap((_, i) => (isTimestamp[i] && isTimestamp[i + 1] ? [i + 1] : []));
    let advance = totalFrames - seek;
    let keep = generated.length;
    if (boundaries.length > 0 && !singleTimestampEnding) {
      const last = boundaries.at(-1)!;
      advance = (generated[last - 1]! - timestampBegin) * INPUT_STRIDE;
      keep = last;
    }
    const offset = Math.floor(seek / INPUT_STRIDE);
    const passIndex = passes.length;
    passes.push(passInfo(seek, result));
    request.decoded(generated.slice(0, keep), result.temperature);
    for (const token of generated.slice(0, keep)) {
      const shifted = token >= timestampBegin ? Math.min(token + offset, timestampBegin + 1500) : token;
      tokens.push({ token: shifted, pass: passIndex });
    }
    seek += advance > 0 ? advance : totalFrames - seek;
  }
  return { tokens, passes };
}
