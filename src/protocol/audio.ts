import type { ModelJob } from './jobs';
/** The voice types shared by the audio routes and the engines. */
export interface Voice {
  id: string;
  name: string;
  /** Language name, e.g. 'Hindi'. */
  language: string;
  /** xx-YY, e.g. 'hi-IN'. */
  languageCode: string;
  gender: 'female' | 'male' | 'neutral';
  model: string;
  /** Bytes a neural voice downloads on first use; absent for voices that work offline. */
  downloadBytes?: number;
  /** A neural voice's weights: the model id its files are cached under (`ai.models.load(weights)`). */
  weights?: string;
}

/** The `response_format`s of /audio/speech, WAV first (the spec's default). */
export const SPEECH_FORMATS = ['wav', 'pcm', 'flac', 'opus', 'aac', 'mp3'] as const;
export type SpeechFormat = (typeof SPEECH_FORMATS)[number];

export interface SpeechParams {
  model: string;
  voice: string;
  input: string;
  speed: number;
  stability: number;
  style: number;
  response_format: SpeechFormat;
}

/** Encoded speech, ready to answer with. */
export interface EncodedAudio {
  bytes: ArrayBuffer;
  contentType: string;
  /** The rate of the encoded samples (24 kHz for pcm, 48 kHz for opus/aac, the voice's own otherwise). */
  sampleRate: number;
}

/** Audio as the engine made it: mono float samples at a sample rate. */
export interface AudioResult {
  samples: Float32Array;
  sampleRate: number;
  /** The same samples as 16-bit integers when the engine made them so (eSpeak-NG): WAV copies them as they are. */
  pcm16?: Int16Array;
}

export interface SpeechEngine {
  voices(): Voice[];
  /** Speaks and encodes as `params.response_format`, both in the engine's worker. */
  speak(params: SpeechParams, signal: AbortSignal): Promise<EncodedAudio>;
  /** The `response_format`s this browser can write, by the check `speak` applies (in the engine's worker). */
  formats(signal: AbortSignal): Promise<SpeechFormat[]>;
}

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
export type SttEngine = 'indic-conformer' | 'whisper';

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

export interface TransformParams {
  model: string;
  audio: Blob;
  /** Target voice id (voice-changer, speech-to-speech). */
  voice?: string;
  speed: number;
  stability: number;
  style: number;
}

/** Audio in, audio out: isolation, voice changing and speech-to-speech. */
export interface TransformEngine {
  voices(): Voice[];
  isolate(params: TransformParams, signal: AbortSignal): Promise<AudioResult>;
  changeVoice(params: TransformParams, signal: AbortSignal): Promise<AudioResult>;
  speechToSpeech(params: TransformParams, signal: AbortSignal): Promise<AudioResult>;
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
