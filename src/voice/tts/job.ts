import type { EncoderPlugins } from '../../audio/encode/plugins';
import type { AudioResult, SpeechFormat } from '../../protocol/audio';
import type { FileLoader } from '../../protocol/weights';
import type { StoreOptions } from '../../protocol/options';
import type { CatalogueVoice } from '../catalogue';

/** One /audio/speech request as the TTS worker receives it. */
export interface SpeakJob {
  voice: CatalogueVoice;
  /** The format the worker encodes the speech as. */
  format: SpeechFormat;
  text: string;
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

/** What a runtime needs besides the job: shared eSpeak, the voice's files, and whether the request was cancelled. */
export interface SpeakContext {
  espeak(): Promise<import('./espeak').Espeak>;
  /** The neural voice's files (under `job.weightsBase`), through the weight store. */
  files(): FileLoader;
  /** Resolves true once the request was cancelled; yields so a cancel message can arrive. */
  stopped(): Promise<boolean>;
}

/** A TTS runtime family (eSpeak, Kokoro, VITS): a new family is a new file and one entry in runtimes.ts. */
export type Runtime = (job: SpeakJob, context: SpeakContext) => Promise<AudioResult>;
