import * as Comlink from 'comlink';
import { decodeMono } from '../audio/mono';
import type { AudioResult } from '../protocol/audio';
import { changeVoice, type VoiceTarget } from '../voice/changer';
import { isolateVoice, type Checkpoint } from '../voice/isolate';
import type { ContourShape } from '../voice/prosody';
import { cancelToken, exposeEngine } from './expose';

/** What to do to the speech in a voice-changer or speech-to-speech job. */
export interface ChangePlan {
  target: VoiceTarget;
  speed: number;
  shape: ContourShape;
}

async function runJob(
  bytes: Uint8Array,
  work: (samples: Float32Array, sampleRate: number, checkpoint: Checkpoint) => Promise<Float32Array>,
): Promise<AudioResult> {
  const token = cancelToken();
  const { samples, sampleRate } = await decodeMono(bytes);
  const result = await work(samples, sampleRate, token.checkpoint);
  return Comlink.transfer({ samples: result, sampleRate }, [result.buffer]);
}

/** The audio DSP worker: decoding, RNNoise isolation and the voice changer, all in WASM. */
const api = {
  /** Removes background noise; output at the input's rate and length. */
  isolate: (bytes: Uint8Array) => runJob(bytes, isolateVoice),
  /** Moves speech to a target voice (and speed, contour); output at the input's rate. */
  changeVoice: (bytes: Uint8Array, plan: ChangePlan) =>
    runJob(bytes, (samples, sampleRate, checkpoint) => changeVoice(samples, sampleRate, plan.target, plan, checkpoint)),
};

export type TransformWorkerApi = typeof api;
exposeEngine(api);
