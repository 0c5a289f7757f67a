import type { StoreOptions } from './options';

/** The speech family's contract: /audio/speech's parameters, the voices, and the TTS worker's job. */

/** A voice as /voices lists it, shared by the audio routes and the engines. */
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
  /** The licence of what speaks it (the model's weights; eSpeak-NG's for its voices), as an SPDX id. */
  license: string;
  /** The credit line a licence such as CC-BY asks for wherever the speech is used; absent when none is asked. */
  attribution?: string;
  /** Whether the licence allows commercial use; `createVaani({ licences: 'commercial' })` never picks one that does not unless named. */
  commercial: boolean;
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
  /** Extension (ElevenLabs' name): `off` speaks `input` as written; `auto` (the default) and `on` read numbers, ₹, dates and times as words first. */
  apply_text_normalization?: 'auto' | 'on' | 'off';
}

/** Encoded speech, ready to answer with. */
export interface EncodedAudio {
  /** The file's bytes in order: a WAV of an engine's 16-bit samples is its header, then the samples' own buffer. */
  chunks: Uint8Array<ArrayBuffer>[];
  contentType: string;
  /** The rate of the encoded samples (24 kHz for pcm, 48 kHz for opus/aac, the voice's own otherwise). */
  sampleRate: number;
}

/** Audio as the engine made it: mono float samples at a sample rate. */
export interface AudioResult {
  samples: Float32Array;
  sampleRate: number;
  /** The same samples as 16-bit integers when the engine made them so (eSpeak-NG): WAV copies them as they are. */
  pcm16?: Int16Array<ArrayBuffer>;
}

export interface SpeechEngine {
  voices(): Voice[];
  /** Speaks and encodes as `params.response_format`, both in the engine's worker. */
  speak(params: SpeechParams, signal: AbortSignal): Promise<EncodedAudio>;
  /** The `response_format`s this browser can write, by the check `speak` applies (in the engine's worker). */
  formats(signal: AbortSignal): Promise<SpeechFormat[]>;
}

/** A file a neural voice downloads, with its size in bytes (as published on the hub). */
export interface DownloadFile {
  path: string;
  bytes: number;
}

/**
 * Where a neural voice's weights come from. `weights` is the key of `createVaani({ models })` that
 * overrides `repo` (e.g. `{ models: { 'kokoro-82m': { baseURL: '/weights/kokoro/' } } }`).
 */
export interface Download {
  weights: string;
  repo: string;
  /** The hub commit the weights are pinned at. */
  revision: string;
  files: DownloadFile[];
  /** Total bytes fetched on first use (then cached by the weight store). */
  bytes: number;
}

/** eSpeak-NG formant synthesis: offline, needs the optional eSpeak plug-in. */
export interface EspeakSpec {
  engine: 'espeak';
  /** The eSpeak voice name with its variant, e.g. 'hi+f3'. */
  espeakVoice: string;
}

/** Kokoro-82M (StyleTTS 2): eSpeak phonemes + a 256-float style row + speed → 24 kHz. */
export interface KokoroSpec {
  engine: 'kokoro';
  /** The style file under the repo, e.g. 'voices/hf_alpha.bin'. */
  styleFile: string;
  /** eSpeak language used to make the phonemes. */
  phonemeLanguage: string;
  download: Download;
}

/** VITS / MMS-TTS: characters → input_ids → waveform. */
export interface VitsSpec {
  engine: 'vits';
  download: Download;
}

/** Piper (rhasspy): `<voice>.onnx` + `<voice>.onnx.json`, eSpeak-NG phonemes or characters → phoneme ids → audio. */
export interface PiperSpec {
  engine: 'piper';
  /** The graph's file name; its config is the same name plus `.json`. */
  file: string;
  /** A multi-speaker model's speaker (`speaker_id_map`'s value). */
  speaker?: number;
  download: Download;
}

/** sherpa-onnx's VITS layout: `model.onnx` (settings in its metadata) + `tokens.txt`, character tokens. */
export interface SherpaVitsSpec {
  engine: 'sherpa-vits';
  /** The `sid` fed to a multi-speaker model. */
  speaker: number;
  /** The `emotion_id` fed to a graph that takes one (AI4Bharat's Rasa export). */
  emotion?: number;
  /** The model's true rate where its metadata's sample_rate is wrong. */
  sampleRate?: number;
  download: Download;
}

export type EngineSpec = EspeakSpec | KokoroSpec | VitsSpec | PiperSpec | SherpaVitsSpec;

export interface CatalogueVoice extends Voice {
  spec: EngineSpec;
  /** Median F0 at default settings, in Hz: the pitch a voice changer moves speech to. */
  medianF0: number;
  /** Formant (spectral envelope) scale relative to an adult male voice: 1.0 male, about 1.17 female. */
  formantScale: number;
  /** A short sentence in the voice's language (demo pages and tests). */
  sampleText: string;
}

/** Encoders the page serves as optional plug-ins, loaded at run time. */
export interface EncoderPlugins {
  /** URL of the MP3 plug-in's lamejs.js (LGPL), used where the browser has no MP3 encoder of its own. */
  mp3?: string;
}

/** One /audio/speech request as the TTS worker receives it. */
export interface SpeakJob {
  voice: CatalogueVoice;
  /** The format the worker encodes the speech as. */
  format: SpeechFormat;
  text: string;
  /** Read numbers, ₹, dates and times in the voice's language as words before speaking (src/common/speech-text). */
  normalize: boolean;
  speed: number;
  stability: number;
  style: number;
  /** Base URL serving the eSpeak plug-in's espeak-ng.js and espeak-ng.data, when the page configured one. */
  espeakBase?: string;
  /** Encoder plug-ins the page serves (the MP3 encoder). */
  encoders: EncoderPlugins;
  /** Base URL of a neural voice's files, and the dtype to pick. */
  weightsBase?: string;
  dtype?: string;
  /** The page's weight-store options (the eSpeak data and neural weights are cached there). */
  store?: StoreOptions;
}

/** The TTS worker's API (src/worker/speech/speech.worker.ts satisfies it). */
export interface SpeechWorker {
  speak(job: SpeakJob): Promise<EncodedAudio>;
  /** The formats `speak` can write there, the plug-ins loaded to tell. */
  formats(encoders: EncoderPlugins): Promise<SpeechFormat[]>;
}
