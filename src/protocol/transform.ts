import type { AudioResult, Voice } from './speech';

/** The transform family's contract: isolation, voice changing and speech-to-speech, and the DSP worker's plan. */

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

/** What the voice changer needs to know of a target voice. */
export interface VoiceTarget {
  /** The voice's median F0, in Hz. */
  medianF0: number;
  /** How far its formants sit from the source's: 1.15 moves every formant 15 % up. */
  formantScale: number;
}

/** What to do to the speech in a voice-changer or speech-to-speech job. */
export interface ChangePlan {
  target: VoiceTarget;
  speed: number;
  /** /audio/speech's stability and style, which reshape the pitch contour (the worker reads them); 'keep' keeps it. */
  contour: { stability: number; style: number } | 'keep';
}

/** The audio DSP worker's API (src/worker/transform/transform.worker.ts satisfies it): encoded audio in, samples out. */
export interface TransformWorker {
  /** Removes background noise; output at the input's rate and length. */
  isolate(bytes: Uint8Array): Promise<AudioResult>;
  /** Moves speech to a target voice (and speed, contour); output at the input's rate. */
  changeVoice(bytes: Uint8Array, plan: ChangePlan): Promise<AudioResult>;
}
