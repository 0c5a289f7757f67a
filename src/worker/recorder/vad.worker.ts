import { loadSilero, type SileroVad } from '../../common/audio/silero';
import { loadOrt } from '../../common/backends/ort';
import type { Served } from '../../protocol/worker';
import { exposeEngine } from '../host/expose';
import type { VadWorker } from '../../protocol/vad';

let vad: Promise<SileroVad> | undefined;

const api = {
  /** Loads the model once and forgets any previous audio. */
  async reset(_signal: AbortSignal, modelURL: string): Promise<void> {
    vad ??= loadOrt(false)
      .then((ort) => loadSilero(ort, modelURL))
      .catch((error: unknown) => {
        vad = undefined;
        throw error;
      });
    (await vad).reset();
  },
  /** Speech probability of each whole 512-sample frame of `samples` (16 kHz), continuing from the previous call. */
  async probabilities(_signal: AbortSignal, samples: Float32Array): Promise<Float32Array> {
    if (!vad) throw new Error('The VAD was not reset with its model first.');
    return (await vad).probabilities(samples);
  },
} satisfies Served<VadWorker>;

exposeEngine(api);
