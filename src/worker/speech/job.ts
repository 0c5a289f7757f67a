import type { AudioResult, SpeakJob } from '../../protocol/speech';
import type { FileLoader } from '../../protocol/weights';

/** What a runtime needs besides the job: shared eSpeak, the voice's files, and the request's signal. */
export interface SpeakContext {
  espeak(): Promise<import('./espeak').Espeak>;
  /** The neural voice's files (under `job.weightsBase`), through the weight store. */
  files(): FileLoader;
  /** Aborted once the request was cancelled (read with `stopped(signal)`, which yields so the cancel can arrive). */
  signal: AbortSignal;
}

/** A TTS runtime family (eSpeak, Kokoro, VITS): a new family is a new file and one entry in runtimes.ts. */
export type Runtime = (job: SpeakJob, context: SpeakContext) => Promise<AudioResult>;
