import type { DecodeRequest, DecodeResult, WhisperDecoder } from './decoder';

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
}

export interface WindowTokens {
  tokens: PassToken[];
  passes: Pass[];
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

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);

async function pass(
  decoder: WhisperDecoder,
  features: Float32Array,
  seek: number,
  request: DecodeRequest,
): Promise<DecodeResult> {
  const encoded = await decoder.encode(shiftFeatures(features, decoder.config.melBins, seek));
  try {
    return await decoder.decode(encoded, request);
  } finally {
    encoded.dispose();
  }
}

/**
 * Decodes one 30 s window. With timestamps it seeks as Whisper does: when a pass stops at a
 * segment boundary before the window's end, decoding restarts from that boundary, and the
 * timestamps of each pass are shifted by where it started.
 */
export async function decodeWindow(
  decoder: WhisperDecoder,
  features: Float32Array,
  request: DecodeRequest,
): Promise<WindowTokens> {
  if (!request.timestamps) {
    const result = await pass(decoder, features, 0, request);
    return {
      tokens: result.tokens.map((token) => ({ token, pass: 0 })),
      passes: [{ seek: 0, avgLogprob: mean(result.logprobs), noSpeechProb: result.noSpeechProb }],
    };
  }
  const { timestampBegin } = decoder.config.ids;
  const totalFrames = features.length / decoder.config.melBins;
  const tokens: PassToken[] = [];
  const passes: Pass[] = [];
  for (let seek = 0; seek < totalFrames;) {
    const result = await pass(decoder, features, seek, request);
    const generated = result.tokens;
    if (generated.length === 0) break;
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
    passes.push({ seek, avgLogprob: mean(result.logprobs), noSpeechProb: result.noSpeechProb });
    for (const token of generated.slice(0, keep)) {
      const shifted = token >= timestampBegin ? Math.min(token + offset, timestampBegin + 1500) : token;
      tokens.push({ token: shifted, pass: passIndex });
    }
    seek += advance > 0 ? advance : totalFrames - seek;
  }
  return { tokens, passes };
}
