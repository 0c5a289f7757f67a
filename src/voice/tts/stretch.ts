import Sonic, { type SonicModule } from '@echogarden/sonic-wasm';

let sonic: Promise<SonicModule> | undefined;

/** Plays mono audio `speed` times faster with Sonic (Apache-2.0), keeping its pitch. */
export async function stretch(samples: Float32Array, sampleRate: number, speed: number): Promise<Float32Array> {
  const m = await (sonic ??= Sonic());
  const stream = m._sonicCreateStream(sampleRate, 1);
  const input = m._malloc(samples.length * 4);
  const capacity = Math.ceil(samples.length / speed) + sampleRate;
  const output = m._malloc(capacity * 4);
  try {
    m._sonicSetSpeed(stream, speed);
    m.HEAPF32.set(samples, input >> 2);
    m._sonicWriteFloatToStream(stream, input, samples.length);
    m._sonicFlushStream(stream);
    const frames = m._sonicReadFloatFromStream(stream, output, capacity);
    return m.HEAPF32.slice(output >> 2, (output >> 2) + frames);
  } finally {
    m._sonicDestroyStream(stream);
    m._free(input);
    m._free(output);
  }
}
