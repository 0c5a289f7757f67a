import Sonic, { type SonicModule } from '@echogarden/sonic-wasm';
import { checkpoint } from '../../protocol/cancel';

let sonic: Promise<SonicModule> | undefined;
const loadSonic = () => (sonic ??= Sonic());

const READ_FRAMES = 8192;

/**
 * Time-stretches mono audio with Sonic, keeping pitch and formants. `bounds[i]` to `bounds[i + 1]`
 * (sample positions, possibly fractional) is block i, played at `speeds[i]`. Only Sonic's speed
 * path is used: its pitch/rate path crashes (out-of-bounds) on some ratios.
 */
export async function sonicStretch(
  samples: Float32Array,
  sampleRate: number,
  bounds: Float64Array,
  speeds: Float32Array,
  signal?: AbortSignal,
): Promise<Float32Array> {
  const m = await loadSonic();
  const expected = speeds.reduce((sum, speed, i) => sum + (bounds[i + 1]! - bounds[i]!) / speed, 0);
  const output = new Float32Array(Math.ceil(expected) + sampleRate);
  const longest = Math.ceil(bounds.reduce((max, bound, i) => (i ? Math.max(max, bound - bounds[i - 1]!) : max), 0)) + 1;
  const stream = m._sonicCreateStream(sampleRate, 1);
  const inPointer = m._malloc(longest * 4);
  const outPointer = m._malloc(READ_FRAMES * 4);
  let written = 0;
  const drain = () => {
    for (let got = 1; got > 0 && written < output.length;) {
      got = m._sonicReadFloatFromStream(stream, outPointer, Math.min(READ_FRAMES, output.length - written));
      output.set(m.HEAPF32.subarray(outPointer >> 2, (outPointer >> 2) + got), written);
      written += got;
    }
  };
  try {
    for (let i = 0; i < speeds.length; i++) {
      if (signal && i % 1000 === 0) await checkpoint(signal);
      const block = samples.subarray(Math.round(bounds[i]!), Math.round(bounds[i + 1]!));
      m._sonicSetSpeed(stream, speeds[i]!);
      m.HEAPF32.set(block, inPointer >> 2);
      m._sonicWriteFloatToStream(stream, inPointer, block.length);
      drain();
    }
    m._sonicFlushStream(stream);
    drain();
    return output.subarray(0, written);
  } finally {
    m._sonicDestroyStream(stream);
    m._free(inPointer);
    m._free(outPointer);
  }
}
