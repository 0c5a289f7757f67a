import * as Comlink from 'comlink';
import { decodeMono } from '../audio/mono';
import type { AudioResult } from '../protocol/speech';
import type { ChangePlan, TransformWorker } from '../protocol/transform';
import { changeVoice } from '../voice/changer';
import { isolateVoice, type Checkpoint } from '../voice/isolate';
import { contourShape, KEEP_CONTOUR } from '../voice/prosody';
import { cancelToken, exposeEngine } from './expose';

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
    runJob(bytes, (samples, sampleRate, checkpoint) => {
      const { contour } = plan;
      const shape = contour === 'keep' ? KEEP_CONTOUR : contourShape(contour.stability, contour.style);
      return changeVoice(samples, sampleRate, plan.target, { speed: plan.speed, shape }, checkpoint);
    }),
} satisfies TransformWorker;

exposeEngine(api);
