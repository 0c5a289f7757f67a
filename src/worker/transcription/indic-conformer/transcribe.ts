import { speechWindows, type Span } from '../../../common/audio/speech-windows';
import type { Segment, Transcript, Word } from '../../../protocol/transcription';
import { invalidInput } from '../../../protocol/errors';
import { VAD_FRAME } from '../../../common/audio/vad-frame';
import { compressionRatio } from '../whisper/guards';
import { indicLanguageName } from '../../../catalogue/languages/indic-conformer';
import type { IndicConformer } from './model';
import { joinText, joinWords, WORD_START, type TimedToken } from './tokens';

const SAMPLE_RATE = 16000;
/** Longest window the model hears at once: it drops words on continuous speech much beyond 15 s. */
export const MAX_WINDOW_SECONDS = 15;

export interface IndicTranscribeOptions {
  language: string;
  decoding: 'ctc' | 'rnnt';
  words: boolean;
  /** Silero speech probabilities of the audio, one per VAD_FRAME samples. */
  speech: Float32Array;
  /** Read before each window and each RNN-T frame: an aborted signal ends the transcript there. */
  signal: AbortSignal;
  /** Runs each window's encoder call (one long blocking run), given the window's samples. */
  blocking?<T>(samples: number, run: () => Promise<T>): Promise<T>;
  /** Called with the whole text so far after each window (`stream: true`). */
  onText?(soFar: string): void;
}

interface RegionTokens {
  region: Span;
  tokens: TimedToken[];
  /** Absolute start time of frame 0 of the window these tokens come from, and its frame duration. */
  offset: number;
  frameSeconds: number;
  avgLogprob: number;
}

const meanSpeech = (speech: Float32Array, { start, end }: Span) => {
  const from = Math.floor(start / VAD_FRAME);
  const to = Math.max(from + 1, Math.ceil(end / VAD_FRAME));
  let sum = 0;
  for (let i = from; i < to; i++) sum += speech[i] ?? 0;
  return sum / (to - from);
};

const blockingAsIs = <T>(_: number, run: () => Promise<T>) => run();

/** The transcript's text: each region's words, regions joined by a space. */
const textOf = (parts: RegionTokens[]) =>
  parts
    .map((part) => joinText(part.tokens))
    .join(' ')
    .trim();

/**
 * Speech to text with IndicConformer: VAD-cut windows of at most 15 s, each encoded once and
 * decoded with the language's vocabulary; one segment per speech region, word times from the
 * CTC frames (or RNN-T emission frames), all mapped back to the original audio.
 */
export async function transcribeIndic(
  model: IndicConformer,
  samples: Float32Array,
  options: IndicTranscribeOptions,
): Promise<Transcript> {
  if (!model.vocabulary.get(options.language))
    throw invalidInput(
      `IndicConformer does not recognise the language '${options.language}'. GET /v1/models lists the languages of each engine.`,
      'language',
      'unsupported_value',
    );
  if (options.decoding === 'rnnt' && !model.rnntSessions)
    throw invalidInput(
      "This IndicConformer source has no RNN-T graphs: use decoding 'ctc'.",
      'decoding',
      'unsupported_value',
    );
  const windows = speechWindows(options.speech, samples.length, {
    frame: VAD_FRAME,
    sampleRate: SAMPLE_RATE,
    maxSeconds: MAX_WINDOW_SECONDS,
  });
  const parts: RegionTokens[] = [];
  for (const window of windows) {
    if (options.signal.aborted) break;
    const audio = samples.subarray(window.start, window.end);
    const encoded = await (options.blocking ?? blockingAsIs)(audio.length, () => model.encode(audio));
    const { tokens, avgLogprob } =
      options.decoding === 'rnnt'
        ? { tokens: await model.rnnt(encoded, options.language, options.signal), avgLogprob: 0 }
        : await model.ctc(encoded, options.language);
    const offset = window.start / SAMPLE_RATE;
    // A word belongs to the speech region its first frame falls in (the last one starting before it).
    const byRegion = window.regions.map((region) => ({ region, tokens: [] as TimedToken[] }));
    let index = 0;
    for (const [i, token] of tokens.entries()) {
      if (i === 0 || token.piece.includes(WORD_START)) {
        const at = (offset + token.start * encoded.frameSeconds) * SAMPLE_RATE;
        index = Math.max(
          0,
          byRegion.findLastIndex(({ region }) => region.start <= at),
        );
      }
      byRegion[index]!.tokens.push(token);
    }
    for (const part of byRegion)
      if (part.tokens.length) parts.push({ ...part, offset, frameSeconds: encoded.frameSeconds, avgLogprob });
    if (tokens.length) options.onText?.(textOf(parts));
  }
  const segments: Segment[] = [];
  const words: Word[] = [];
  for (const part of parts) {
    const text = joinText(part.tokens);
    segments.push({
      id: segments.length,
      seek: Math.round((part.region.start / SAMPLE_RATE) * 100),
      start: part.region.start / SAMPLE_RATE,
      end: part.region.end / SAMPLE_RATE,
      text: ` ${text}`,
      tokens: part.tokens.map((token) => token.id),
      temperature: 0,
      avg_logprob: part.avgLogprob,
      compression_ratio: await compressionRatio(text),
      no_speech_prob: 1 - meanSpeech(options.speech, part.region),
    });
    if (options.words) words.push(...joinWords(part.tokens, part.frameSeconds, part.offset));
  }
  return {
    task: 'transcribe',
    language: indicLanguageName(options.language),
    duration: samples.length / SAMPLE_RATE,
    text: textOf(parts),
    segments,
    ...(options.words ? { words } : {}),
  };
}
