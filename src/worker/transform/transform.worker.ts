import * as Comlink from 'comlink';
import { decodeMono } from '../../common/audio/mono';
import type { AudioResult } from '../../protocol/speech';
import type { ChangePlan, TransformWorker } from '../../protocol/transform';
import { changeVoice } from './changer';
import type { Served } from '../../protocol/worker';
import { isolateVoice } from './isolate';
import { contourShape, KEEP_CONTOUR } from './prosody';
import { exposeEngine } from '../host/expose';

async function runJob(
  signal: AbortSignal,
  bytes: Uint8Array,
  work: (samples: Float32Array, sampleRate: number, signal: AbortSignal) => Promise<Float32Array>,
): Promise<AudioResult> {
  const { samples, sampleRate } = await decodeMono(bytes);
  const result = await work(samples, sampleRate, signal);
  return Comlink.transfer({ samples: result, sampleRate }, [result.buffer]);
}

/** The audio DSP worker: decoding, RNNoise isolation and the voice changer, all in WASM. */
const api = {
  /** Removes background noise; output at the input's rate and length. */
  isolate: (signal: AbortSignal, bytes: Uint8Array) => runJob(signal, bytes, isolateVoice),
  /** Moves speech to a target voice (and speed, contour); output at the input's rate. */
  changeVoice: (signal: AbortSignal, bytes: Uint8Array, plan: ChangePlan) =>
    runJob(signal, bytes, (samples, sampleRate, signal) => {
      const { contour } = plan;
      const shape = contour === 'keep' ? KEEP_CONTOUR : contourShape(contour.stability, contour.style);
      return changeVoice(samples, sampleRate, plan.target, { speed: plan.speed, shape }, signal);
    }),
} satisfies Served<TransformWorker>;

exposeEngine(api);
