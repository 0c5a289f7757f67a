import { speechWindows, type Span } from '../../../common/audio/speech-windows';
import type { VadChunking } from '../../../protocol/transcription';
import { VAD_FRAME } from '../../../common/audio/vad-frame';

export const SAMPLE_RATE = 16000;
export const WINDOW = 30 * SAMPLE_RATE;
/** Audio longer than one window is cut into 30 s windows overlapping by 2 × 5 s. */
const STRIDE = 5 * SAMPLE_RATE;

/** One decoder input: the spans of the audio it holds, back to back, and which of its segments count. */
export interface Window {
  /** Samples decoded together (one span for a fixed window; the speech regions for a VAD window). */
  spans: Span[];
  /**
   * Segments starting in [keepFrom, keepTo) seconds (absolute) belong to this window: the middle of
   * an overlapping window, up to the end of the audio for the last one. A lone window keeps all.
   */
  keepFrom: number;
  keepTo: number;
}

/** Fixed 30 s windows 20 s apart, each keeping its middle (transformers.js's chunking with a 5 s stride). */
export function windows(length: number): { from: number; keepFrom: number; keepTo: number }[] {
  if (length <= WINDOW) return [{ from: 0, keepFrom: 0, keepTo: Infinity }];
  const out: { from: number; keepFrom: number; keepTo: number }[] = [];
  for (let from = 0; ; from += WINDOW - 2 * STRIDE) {
    const last = from + WINDOW >= length;
    out.push({
      from,
      keepFrom: from === 0 ? 0 : (from + STRIDE) / SAMPLE_RATE,
      keepTo: (last ? length : from + WINDOW - STRIDE) / SAMPLE_RATE,
    });
    if (last) return out;
  }
}

export function fixedPlan(length: number): Window[] {
  return windows(length).map(({ from, keepFrom, keepTo }) => ({
    spans: [{ start: from, end: Math.min(length, from + WINDOW) }],
    keepFrom,
    keepTo,
  }));
}

/**
 * Windows of speech only, as faster-whisper collects them: Silero's regions (`speech`, one
 * probability per VAD_FRAME samples), padded, a region over 30 s cut at its least speech-like
 * frame, then packed in order while their speech adds up to at most 30 s, however far apart they
 * are; the silence between regions is left out. Windows do not overlap: each keeps all its segments.
 */
export function speechPlan(speech: Float32Array, length: number, chunking: VadChunking): Window[] {
  const regions = speechWindows(speech, length, {
    frame: VAD_FRAME,
    sampleRate: SAMPLE_RATE,
    maxSeconds: WINDOW / SAMPLE_RATE,
    threshold: chunking.threshold,
    minSilenceSeconds: chunking.silenceMs / 1000,
    padSeconds: chunking.paddingMs / 1000,
  }).flatMap((window) => window.regions);
  const plan: Window[] = [];
  let held = WINDOW;
  for (const region of regions) {
    const size = region.end - region.start;
    if (held + size > WINDOW) {
      plan.push({ spans: [], keepFrom: 0, keepTo: Infinity });
      held = 0;
    }
    plan.at(-1)!.spans.push(region);
    held += size;
  }
  return plan;
}

/** The window's spans back to back. */
export function windowAudio(samples: Float32Array, window: Window): Float32Array {
  if (window.spans.length === 1) return samples.subarray(window.spans[0]!.start, window.spans[0]!.end);
  const out = new Float32Array(window.spans.reduce((sum, span) => sum + span.end - span.start, 0));
  let at = 0;
  for (const span of window.spans) {
    out.set(samples.subarray(span.start, span.end), at);
    at += span.end - span.start;
  }
  return out;
}

/**
 * A time in the window's audio (seconds from its start) on the original audio's clock. A time
 * on the seam of two spans is the later span's start, or with `end` the earlier one's end; times
 * past the window's audio stay at its last span's end.
 */
export function toOriginal(window: Window, seconds: number, edge: 'start' | 'end' = 'start'): number {
  let at = 0;
  for (const span of window.spans) {
    const length = (span.end - span.start) / SAMPLE_RATE;
    const inside = edge === 'end' ? seconds <= at + length : seconds < at + length;
    if (inside) return span.start / SAMPLE_RATE + Math.max(0, seconds - at);
    at += length;
  }
  return window.spans.at(-1)!.end / SAMPLE_RATE;
}
