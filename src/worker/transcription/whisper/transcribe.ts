import type { Segment, Transcript, TranscriptionParams, VadChunking } from '../../../protocol/transcription';
import { invalidInput } from '../../../protocol/errors';
import type { WhisperMel } from '../../../common/audio/mel';
import type { WhisperDecoder } from './decoder';
import { withDefaults } from './guards';
import { languageName } from '../../../catalogue/languages/whisper';
import { PreviousText } from './previous-text';
import { fixedPlan, SAMPLE_RATE, speechPlan, toOriginal, windowAudio, WINDOW, type Window } from './plan';
import { placeSegments } from './timeline';
import { decodeWindow } from './seek';
import { splitSegments, wholeSegment, type WindowSegment } from './segments';
import type { WhisperTokenizer } from './tokenizer';
import { segmentWords } from './words';
import { carryUnfinished } from './utf8';

export interface LoadedWhisper {
  decoder: WhisperDecoder;
  tokenizer: WhisperTokenizer;
  mel: WhisperMel;
}

/** The request's decoding fields (see TranscriptionParams: a language is detected from the first 30 s when absent), and the worker's hooks. */
export interface TranscribeOptions extends Pick<
  TranscriptionParams,
  'task' | 'language' | 'prompt' | 'temperature' | 'timestamps' | 'words' | 'guards'
> {
  /** Silero's speech probability per VAD frame with the chunking asked for: windows of speech only. */
  vad?: { speech: Float32Array; chunking: VadChunking };
  /** Read before every decoder step (see DecodeRequest.signal). */
  signal: AbortSignal;
  /** Called as decoding advances (the worker's sign of life for its host). */
  progress?(): void;
  /** Called after each window with the text so far (a character still being written is left out). */
  text?(soFar: string): void;
}

/** Below −60 dBFS throughout: no sound at all. */
const SILENT_PEAK = 1e-3;
const isSilent = (samples: Float32Array) => samples.every((sample) => Math.abs(sample) < SILENT_PEAK);

/** The kept segments' text, without a trailing character whose bytes are not all decoded yet. */
const textSoFar = (model: LoadedWhisper, kept: { segment: WindowSegment }[]) =>
  model.tokenizer
    .decode(kept.flatMap(({ segment }) => segment.textTokens))
    .replace(/\uFFFD+$/, '')
    .trimStart();

export async function detectLanguage(model: LoadedWhisper, features: Float32Array): Promise<string> {
  const encoded = await model.decoder.encode(features);
  const probabilities = await model.decoder.languageProbabilities(encoded).finally(() => encoded.dispose());
  return [...probabilities].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
}

function prefixOf(model: LoadedWhisper, task: TranscribeOptions['task'], language: string, timestamps: boolean) {
  const { ids, languages } = model.decoder.config;
  const taskId = task === 'translate' ? ids.translate : ids.transcribe;
  return [ids.sot, languages.get(language)!, taskId, ...(timestamps ? [] : [ids.noTimestamps])];
}

/** Speech to text with one Whisper model: 16 kHz mono samples in, OpenAI's transcript shape out. */
export async function transcribe(
  model: LoadedWhisper,
  samples: Float32Array,
  options: TranscribeOptions,
): Promise<Transcript> {
  const { config } = model.decoder;
  if (options.language !== undefined && !config.languages.has(options.language)) {
    throw invalidInput(
      `This model does not recognise the language '${options.language}'. GET /v1/models lists the languages it knows.`,
      'language',
      'unsupported_value',
    );
  }
  // Digital silence (a muted microphone, an empty track) has nothing to decode: no model may invent text for it.
  if (isSilent(samples))
    return {
      task: options.task,
      language: languageName(options.language ?? 'en'),
      duration: samples.length / SAMPLE_RATE,
      text: '',
      segments: [],
      ...(options.words ? { words: [] } : {}),
    };
  const plan = options.vad
    ? speechPlan(options.vad.speech, samples.length, options.vad.chunking)
    : fixedPlan(samples.length);
  // Fixed windows overlap and are merged by their timestamps; VAD windows follow each other.
  const timestamps = options.timestamps || (!options.vad && plan.length > 1);
  const guards = withDefaults(options.guards);
  const prompt = options.prompt?.trim() ? model.tokenizer.encode(` ${options.prompt.trim()}`) : [];
  let language = options.language;
  const kept: { segment: WindowSegment; window: Window }[] = [];
  let previous = new PreviousText(prompt, guards.conditionOnPreviousText, config);
  for (const window of plan) {
    const features = model.mel.extract(windowAudio(samples, window).subarray(0, WINDOW));
    language ??= await detectLanguage(model, features);
    // Overlapping windows each start from the request's prompt; VAD windows carry the text on.
    if (!options.vad) previous = new PreviousText(prompt, guards.conditionOnPreviousText, config);
    const task = prefixOf(model, options.task, language, timestamps);
    const { tokens, passes } = await decodeWindow(model.decoder, features, {
      prefix: () => [...previous.prompt(), ...task],
      decoded: (tokens, temperature) => previous.add(tokens, temperature),
      textOf: (tokens) => model.tokenizer.decode(tokens),
      guards,
      timestamps,
      temperature: options.temperature,
      signal: options.signal,
      progress: options.progress,
    });
    for (const segment of (timestamps ? splitSegments : wholeSegment)(tokens, passes, config.ids)) {
      const start = toOriginal(window, segment.start ?? 0);
      if (start >= window.keepFrom && start < window.keepTo) kept.push({ segment, window });
    }
    options.text?.(textSoFar(model, kept));
  }
  const duration = samples.length / SAMPLE_RATE;
  // A character split between segments moves whole into the later one.
  carryUnfinished(
    kept.map(({ segment }) => segment),
    (token) => model.tokenizer.bytes(token),
  );
  const raw: Segment[] = [];
  for (const [id, { segment, window }] of kept.entries()) {
    const text = model.tokenizer.decode(segment.textTokens);
    raw.push({
      id,
      seek: Math.round((window.spans[0]!.start / SAMPLE_RATE) * 100) + segment.pass.seek,
      start: toOriginal(window, segment.start ?? 0),
      end: toOriginal(window, segment.end ?? Infinity, 'end'),
      text,
      tokens: segment.tokens,
      temperature: segment.pass.temperature,
      avg_logprob: segment.pass.avgLogprob,
      compression_ratio: segment.pass.compressionRatio,
      no_speech_prob: segment.pass.noSpeechProb,
    });
  }
  // Whatever the windows give, segments come out ordered, non-overlapping and inside the audio.
  // Text without times spans the speech, not the pauses before and after it.
  const speech =
    options.vad && plan.length
      ? { start: toOriginal(plan[0]!, 0), end: toOriginal(plan.at(-1)!, Infinity, 'end') }
      : undefined;
  const segments = placeSegments(raw, duration, speech).map((segment, id) => ({ ...segment, id }));
  return {
    task: options.task,
    language: languageName(language ?? 'en'),
    duration,
    text: segments
      .map((segment) => segment.text)
      .join('')
      .trim(),
    segments,
    ...(options.words ? { words: segmentWords(segments) } : {}),
  };
}
