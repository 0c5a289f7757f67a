import type { DecodingGuards } from '../../../protocol/transcription';
import type { DecodeResult } from './decoder';

/** The guards a request may set (see DecodingGuards). */
export type WhisperGuards = DecodingGuards;

/** OpenAI's `transcribe()` defaults. */
export const DEFAULT_GUARDS: WhisperGuards = {
  compressionRatioThreshold: 2.4,
  logprobThreshold: -1,
  noSpeechThreshold: 0.6,
  temperatureIncrement: 0.2,
  conditionOnPreviousText: true,
};

/** The request's guards over the defaults (fields left undefined keep theirs). */
export function withDefaults(guards: Partial<WhisperGuards> = {}): WhisperGuards {
  const set = Object.entries(guards).filter(([, value]) => value !== undefined);
  return { ...DEFAULT_GUARDS, ...Object.fromEntries(set) };
}

/** Temperatures tried in turn: the request's, then up by `increment` to 1.0 (OpenAI's 0, 0.2, …, 1.0 from 0). */
export function temperatures(start: number, increment: number): number[] {
  const out = [start];
  if (increment > 0) for (let t = start + increment; t <= 1 + 1e-9; t += increment) out.push(Math.round(t * 100) / 100);
  return out;
}

/** zlib-compressed size ratio of the text, as Whisper reports it (high means repetitive). */
export async function compressionRatio(text: string): Promise<number> {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length === 0) return 0;
  const compressed = await new Response(
    new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate')),
  ).arrayBuffer();
  return bytes.length / compressed.byteLength;
}

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);

/** One pass as kept: what the decoder gave, at which temperature, and the figures the guards judged it by. */
export interface GuardedPass extends DecodeResult {
  temperature: number;
  avgLogprob: number;
  compressionRatio: number;
  /** The model heard no speech: the pass's tokens are not used. */
  silent: boolean;
}

/**
 * Decodes at each temperature until a pass passes the guards (OpenAI's decode_with_fallback): not
 * cut as a loop, compression ratio at most the threshold, average log-probability at least the
 * threshold, or likely silence (then no fallback helps). The last attempt is kept when none passes.
 */
export async function decodeWithFallback(
  decode: (temperature: number) => Promise<DecodeResult>,
  textOf: (tokens: number[]) => string,
  guards: WhisperGuards,
  start: number,
): Promise<GuardedPass> {
  let kept: GuardedPass | undefined;
  for (const temperature of temperatures(start, guards.temperatureIncrement)) {
    const result = await decode(temperature);
    const avgLogprob = mean(result.logprobs);
    const ratio = await compressionRatio(textOf(result.tokens));
    const lowLogprob = avgLogprob < guards.logprobThreshold;
    const silent = result.noSpeechProb > guards.noSpeechThreshold && lowLogprob;
    kept = { ...result, temperature, avgLogprob, compressionRatio: ratio, silent };
    const fails = result.looped || ratio > guards.compressionRatioThreshold || lowLogprob;
    if (silent || !fails) break;
  }
  return kept!;
}
