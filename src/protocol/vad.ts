/** The recorder's VAD worker's API (src/worker/recorder/vad.worker.ts satisfies it): Silero over 16 kHz audio as it arrives. */
export interface VadWorker {
  /** Loads the model once and forgets any previous audio. */
  reset(modelURL: string): Promise<void>;
  /** Speech probability of each whole 512-sample frame of `samples` (16 kHz), continuing from the previous call. */
  probabilities(samples: Float32Array): Promise<Float32Array>;
}
