import type { ModelJob } from './jobs';

/** The transcription family's contract: /audio/transcriptions and /audio/translations, Whisper's and IndicConformer's jobs. */

/** Longest audio a transcription accepts, in seconds (the route's 25 MiB upload limit bounds it too). */
export const MAX_TRANSCRIPTION_SECONDS = 10 * 60;
/** Shortest audio a transcription accepts, in seconds: OpenAI's minimum (400 `audio_too_short` below it). */
export const MIN_TRANSCRIPTION_SECONDS = 0.1;

export interface TranscriptionParams {
  model: string;
  audio: Blob;
  task: 'transcribe' | 'translate';
  language?: string;
  prompt?: string;
  temperature: number;
  /** Whether segment timestamps are needed (verbose_json, srt, vtt). */
  timestamps: boolean;
  /** Whether word timestamps are wanted (`timestamp_granularities[]=word` with verbose_json). */
  words?: boolean;
  /** Which recogniser to use (extension field `engine`); 'auto' routes by language. */
  engine?: SttEngine | 'auto';
  /** IndicConformer's decoder (extension field `decoding`); CTC by default. */
  decoding?: 'ctc' | 'rnnt';
  /** Whisper's fallback, silence and prompt rules (extension fields); OpenAI's defaults when absent. */
  guards?: Partial<DecodingGuards>;
  /**
   * Called with the text so far as it grows (after each decoded window), for `stream: true`; page
   * side only, never sent to a worker. A family that decodes at once calls it never (the route then
   * sends the whole text as one delta).
   */
  onText?(soFar: string): void;
  /** Cut the audio at pauses found by Silero VAD (`chunking_strategy`); fixed 30 s windows when absent. */
  chunking?: VadChunking;
}

/** `chunking_strategy` as the engine reads it ('auto' is OpenAI's server_vad defaults). */
export interface VadChunking {
  /** Speech probability that starts speech (0.5). */
  threshold: number;
  /** Audio kept before and after each stretch of speech, in ms (300). */
  paddingMs: number;
  /** A pause at least this long ends a stretch of speech, in ms (200). */
  silenceMs: number;
}

/**
 * The checks OpenAI's `transcribe()` makes on each Whisper decoding pass (faster-whisper and
 * whisper.cpp use the same defaults): a pass is redone at a higher temperature when its text
 * compresses too well (a loop) or its tokens are unlikely; a pass the model thinks is silence is dropped.
 */
export interface DecodingGuards {
  /** Redo a pass whose text's zlib compression ratio is above this (2.4). */
  compressionRatioThreshold: number;
  /** Redo a pass whose average token log-probability is below this (−1). */
  logprobThreshold: number;
  /** A pass with `<|nospeech|>` probability above this (0.6) and a log-probability under the threshold is silence. */
  noSpeechThreshold: number;
  /** Step between fallback temperatures (0.2); 0 turns the fallback off. */
  temperatureIncrement: number;
  /** Prompt each pass with the text decoded before it (reset after a pass decoded above temperature 0.5). */
  conditionOnPreviousText: boolean;
}

/** The speech-recognition families behind speech-stt-v1. */
export type SttEngine = 'indic-conformer' | 'whisper' | 'shruti';

export interface Word {
  word: string;
  start: number;
  end: number;
}

export interface Segment {
  id: number;
  seek: number;
  start: number;
  end: number;
  text: string;
  tokens: number[];
  temperature: number;
  avg_logprob: number;
  compression_ratio: number;
  no_speech_prob: number;
}

export interface Transcript {
  task: 'transcribe' | 'translate';
  language: string;
  duration: number;
  text: string;
  segments: Segment[];
  /** Word timestamps, when asked for and the engine gives them (IndicConformer). */
  words?: Word[];
  /** Which family recognised the audio and why (Vaani's extension of verbose_json). */
  engine?: { name: SttEngine; language_source: 'request' | 'detected' | 'default' };
}

export interface TranscriptionEngine {
  transcribe(params: TranscriptionParams, signal: AbortSignal): Promise<Transcript>;
}

export interface WhisperJob extends ModelJob {
  audio: Uint8Array;
  params: Omit<TranscriptionParams, 'audio'>;
  /** URL of the Silero VAD model, for `params.chunking`. */
  vadURL: string;
}

export interface TranscriptionEvents {
  text(soFar: string): void;
}

export interface WhisperResult {
  transcript: Transcript;
  backend: string;
  languages: string[];
}

export interface IndicJob extends ModelJob {
  audio: Uint8Array;
  /** URL of the Silero VAD model that cuts the audio into windows. */
  vadURL: string;
  language: string;
  decoding: 'ctc' | 'rnnt';
  words: boolean;
}

export interface IndicResult {
  transcript: Transcript;
  backend: string;
  dtype: string;
}

/** The Whisper worker's API (src/worker/transcription/whisper.worker.ts satisfies it). */
export interface WhisperWorker {
  /** `events.text` (a comlink proxy, for streamed answers) hears the text so far after each window. */
  transcribe(job: WhisperJob, events?: TranscriptionEvents): Promise<WhisperResult>;
  /** The language Whisper hears in the first 30 s. */
  detect(job: Omit<WhisperJob, 'params' | 'vadURL'>): Promise<string>;
}

/** The IndicConformer worker's API (src/worker/transcription/indic-conformer.worker.ts satisfies it). */
export interface IndicConformerWorker {
  transcribe(job: IndicJob, events?: TranscriptionEvents): Promise<IndicResult>;
}

export interface MoonshineJob extends ModelJob {
  audio: Uint8Array;
  /** URL of the Silero VAD model that cuts the audio into windows. */
  vadURL: string;
  /** The transcript's `language` (the model's language, by name). */
  languageName: string;
}

export interface MoonshineResult {
  transcript: Transcript;
  backend: string;
}

/** The compact per-language worker's API (sherpa-onnx's Moonshine layout; src/worker/transcription/moonshine.worker.ts). */
export interface MoonshineWorker {
  transcribe(job: MoonshineJob, events?: TranscriptionEvents): Promise<MoonshineResult>;
}
