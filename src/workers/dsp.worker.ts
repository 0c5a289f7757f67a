import * as Comlink from 'comlink';
import { decodeMono } from '../audio/mono';
import type { AudioResult } from '../protocol/audio';
import { changeVoice, type VoiceTarget } from '../voice/changer';
import { isolateVoice, type Checkpoint } from '../voice/isolate';
import type { ContourShape } from '../voice/prosody';
import { exposeEngine } from './expose';

/** What to do to the speech in a voice-changer or speech-to-speech job. */
export interface ChangePlan {
  target: VoiceTarget;
  speed: number;
  shape: ContourShape;
}

const running = new Set<number>();
const cancelled = new Set<number>();

/** Yields to the event loop (so a cancel message can arrive) and stops a cancelled job. */
const checkpointFor =
  (job: number): Checkpoint =>
  async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (cancelled.has(job)) throw new DOMException('The job was cancelled.', 'AbortError');
  };

async function runJob(
  job: number,
  bytes: Uint8Array,
  work: (samples: Float32Array, sampleRate: number, checkpoint: Checkpoint) => Promise<Float32Array>,
): Promise<AudioResult> {
  running.add(job);
  try {
    const { samples, sampleRate } = await decodeMono(bytes);
    const result = await work(samples, sampleRate, checkpointFor(job));
    return Comlink.transfer({ samples: result, sampleRate }, [result.buffer]);
  } finally {
    running.delete(job);
    cancelled.delete(job);
  }
}

/** The audio DSP worker: decoding, RNNoise isolation and the voice changer, all in WASM. */
const api = {
  /** Removes background noise; output at the input's rate and length. */
  isolate: (job: number, bytes: Uint8Array) => runJob(job, bytes, isolateVoice),
  /** Moves speech to a target voice (and speed, contour); output at the input's rate. */
  changeVoice: (job: number, bytes: Uint8Array, plan: ChangePlan) =>
    runJob(job, bytes, (samples, sampleRate, checkpoint) =>
      changeVoice(samples, sampleRate, plan.target, plan, checkpoint),
    ),
  /** Stops a running job at its next checkpoint. */
  cancel(job: number): void {
    if (running.has(job)) cancelled.add(job);
  },
};

export type DspWorkerApi = typeof api;
exposeEngine(api);
