import SpeexResampler, { type SpeexModule } from '@echogarden/speex-resampler-wasm/simd';

let speex: Promise<SpeexModule> | undefined;
const loadSpeex = () => (speex ??= SpeexResampler());

/** Speex quality 0–10. 7 keeps the level within a fraction of a percent of sox and costs little. */
export const DEFAULT_RESAMPLE_QUALITY = 7;

const BLOCK = 16384;

/**
 * Resamples mono float audio with the Speex resampler (WASM). The output is time-aligned with the
 * input (the filter's leading zeros are skipped and its tail flushed with padding) and exactly
 * round(length × toRate / fromRate) samples long. Returns a copy when the rates are equal.
 */
export async function resample(
  samples: Float32Array,
  fromRate: number,
  toRate: number,
  quality = DEFAULT_RESAMPLE_QUALITY,
): Promise<Float32Array> {
  if (fromRate === toRate) return samples.slice();
  const m = await loadSpeex();
  const output = new Float32Array(Math.round((samples.length * toRate) / fromRate));
  const outCapacity = Math.ceil((BLOCK * toRate) / fromRate) + 64;
  const errorPointer = m._malloc(4);
  const state = m._speex_resampler_init(1, fromRate, toRate, quality, errorPointer);
  const inPointer = m._malloc(BLOCK * 4);
  const outPointer = m._malloc(outCapacity * 4);
  const lengths = m._malloc(8);
  try {
    if (!state) throw new Error(`The Speex resampler refused ${fromRate} → ${toRate} Hz.`);
    m._speex_resampler_skip_zeros(state);
    const padding = new Float32Array(m._speex_resampler_get_input_latency(state) + 1);
    let written = 0;
    for (const input of [samples, padding]) {
      for (let start = 0; start < input.length && written < output.length;) {
        const block = input.subarray(start, start + BLOCK);
        m.HEAPF32.set(block, inPointer >> 2);
        m.HEAPU32[lengths >> 2] = block.length;
        m.HEAPU32[(lengths >> 2) + 1] = outCapacity;
        m._speex_resampler_process_float(state, 0, inPointer, lengths, outPointer, lengths + 4);
        const consumed = m.HEAPU32[lengths >> 2]!;
        const produced = Math.min(m.HEAPU32[(lengths >> 2) + 1]!, output.length - written);
        output.set(m.HEAPF32.subarray(outPointer >> 2, (outPointer >> 2) + produced), written);
        written += produced;
        start += consumed;
        if (consumed === 0 && produced === 0) break;
      }
    }
    return output;
  } finally {
    if (state) m._speex_resampler_destroy(state);
    for (const pointer of [errorPointer, inPointer, outPointer, lengths]) m._free(pointer);
  }
}
