import type { AudioResult, SpeakJob } from '../../protocol/speech';
import type { FileLoader } from '../../protocol/weights';

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
