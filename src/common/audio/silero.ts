import type { Ort, OrtSession } from '../backends/ort';
import { yieldToEvents } from '../../protocol/cancel';
import { VAD_FRAME } from './vad-frame';

/** Silero VAD v5/v6 at 16 kHz: VAD_FRAME new samples per step, with the previous CONTEXT as context. */
const CONTEXT = 64;

type Tensor = import('onnxruntime-web').Tensor;

/** How a long run of frames stays stoppable: `signal` is read before each frame, after a yield every `yieldEvery` frames. */
export interface FrameOptions {
  signal?: AbortSignal;
  /** Frames between yields to the event loop (so a cancel message can arrive); never when absent. */
  yieldEvery?: number;
  /** Called before each frame (a worker's sign of life for its host). */
  onFrame?(): void;
}

/** Speech probabilities of 16 kHz audio, frame by frame, carrying the model's state across calls. */
export class SileroVad {
  private state: Tensor | undefined;
  private context = new Float32Array(CONTEXT);

  constructor(
    private readonly ort: Ort,
    private readonly session: OrtSession,
  ) {}

  /** Forgets previous audio. */
  reset(): void {
    this.state = undefined;
    this.context = new Float32Array(CONTEXT);
  }

  /**
   * Speech probability of each whole VAD_FRAME-sample frame of `samples`, continuing from the
   * previous call; an aborted `options.signal` stops it before the next frame (the rest stay 0).
   */
  async probabilities(samples: Float32Array, options: FrameOptions = {}): Promise<Float32Array> {
    const { signal, yieldEvery, onFrame } = options;
    const { ort } = this;
    const sr = new ort.Tensor('int64', BigInt64Array.of(16000n), []);
    const out = new Float32Array(Math.floor(samples.length / VAD_FRAME));
    for (let frame = 0; frame < out.length; frame++) {
      onFrame?.();
      if (yieldEvery && (frame + 1) % yieldEvery === 0) await yieldToEvents();
      if (signal?.aborted) break;
      const input = new Float32Array(CONTEXT + VAD_FRAME);
      input.set(this.context);
      input.set(samples.subarray(frame * VAD_FRAME, (frame + 1) * VAD_FRAME), CONTEXT);
      this.context = input.slice(VAD_FRAME);
      this.state ??= new ort.Tensor('float32', new Float32Array(2 * 128), [2, 1, 128]);
      const result = await this.session.run({
        input: new ort.Tensor('float32', input, [1, CONTEXT + VAD_FRAME]),
        state: this.state,
        sr,
      });
      this.state = result.stateN!;
      out[frame] = (result.output!.data as Float32Array)[0]!;
    }
    return out;
  }
}

/** Loads the Silero model shipped with @ricky0123/vad-web from its URL. */
export async function loadSilero(ort: Ort, modelURL: string): Promise<SileroVad> {
  const response = await fetch(modelURL);
  if (!response.ok) throw new Error(`Could not load the Silero VAD model from ${modelURL}: HTTP ${response.status}.`);
  const session = await ort.InferenceSession.create(new Uint8Array(await response.arrayBuffer()), {
    executionProviders: ['wasm'],
  });
  return new SileroVad(ort, session);
}

/** One Silero model per worker, loaded on first use; a failed load is forgotten so the next call tries again. */
export function sileroOnce(load: (modelURL: string) => Promise<SileroVad>): (modelURL: string) => Promise<SileroVad> {
  let vad: Promise<SileroVad> | undefined;
  return (modelURL) =>
    (vad ??= load(modelURL).catch((error: unknown) => {
      vad = undefined;
      throw error;
    }));
}
