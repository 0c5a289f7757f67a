import createRnnoise, { type RnnoiseModule } from '@jitsi/rnnoise-wasm/dist/rnnoise-sync.js';
import { resample } from '../../common/audio/resample';
import { checkpoint } from '../../protocol/cancel';

/** RNNoise works on 48 kHz audio in 10 ms frames, on floats scaled like int16. */
export const RNNOISE_RATE = 48000;
export const RNNOISE_FRAME = 480;
/** The RNNoise 0.2 model's output lags its input by two frames (measured). */
export const RNNOISE_DELAY = 960;
const SCALE = 32768;

let rnnoise: Promise<RnnoiseModule> | undefined;
const loadRnnoise = () => (rnnoise ??= createRnnoise().ready);

/**
 * Denoises 48 kHz mono audio with RNNoise. The output has the input's length and is time-aligned
 * with it: the model's delay is compensated by feeding padding and dropping the lead. An aborted
 * `signal` stops it between blocks of frames (its reason is thrown).
 */
export async function denoise48k(samples: Float32Array, signal?: AbortSignal): Promise<Float32Array> {
  const m = await loadRnnoise();
  const output = new Float32Array(samples.length);
  const state = m._rnnoise_create(0);
  const inPointer = m._malloc(RNNOISE_FRAME * 4);
  const outPointer = m._malloc(RNNOISE_FRAME * 4);
  const frame = new Float32Array(RNNOISE_FRAME);
  try {
    const end = samples.length + RNNOISE_DELAY;
    for (let start = 0, count = 0; start < end; start += RNNOISE_FRAME, count++) {
      if (signal && count % 500 === 0) await checkpoint(signal);
      frame.fill(0);
      frame.set(samples.subarray(start, start + RNNOISE_FRAME));
      for (let i = 0; i < RNNOISE_FRAME; i++) m.HEAPF32[(inPointer >> 2) + i] = frame[i]! * SCALE;
      m._rnnoise_process_frame(state, outPointer, inPointer);
      const heap = m.HEAPF32;
      for (let i = 0; i < RNNOISE_FRAME; i++) {
        const target = start + i - RNNOISE_DELAY;
        if (target >= 0 && target < output.length) output[target] = heap[(outPointer >> 2) + i]! / SCALE;
      }
    }
    return output;
  } finally {
    m._rnnoise_destroy(state);
    m._free(inPointer);
    m._free(outPointer);
  }
}

/** Removes background noise from mono speech at any sample rate; same rate and length out. */
export async function isolateVoice(
  samples: Float32Array,
  sampleRate: number,
  signal?: AbortSignal,
): Promise<Float32Array> {
  const at48k = await resample(samples, sampleRate, RNNOISE_RATE);
  const clean = await denoise48k(at48k, signal);
  const back = await resample(clean, RNNOISE_RATE, sampleRate);
  if (back.length === samples.length) return back;
  const exact = new Float32Array(samples.length);
  exact.set(back.subarray(0, samples.length));
  return exact;
}
