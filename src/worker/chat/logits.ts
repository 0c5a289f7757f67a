import { getFloat16 } from '@petamoriken/float16';

let halfTable: Float32Array | undefined;

/** Every float16 bit pattern as a float32, built once (fast decoding of fp16 logits). */
function halves(): Float32Array {
  if (halfTable) return halfTable;
  const view = new DataView(new ArrayBuffer(2));
  halfTable = new Float32Array(65536);
  for (let bits = 0; bits < 65536; bits++) {
    view.setUint16(0, bits, true);
    halfTable[bits] = getFloat16(view, 0, true);
  }
  return halfTable;
}

/**
 * The last `size` values of float32 or float16 logits as a Float32Array the caller may change. The
 * runtime's output is fresh each run, so a single float32 row is returned as it is: a copy of a
 * whole vocabulary's row every decode step costs a visible share of the step (docs/performance.md). Several rows (a prompt) are cut to the last one, so the rest can be freed.
 */
export function lastRow(data: ArrayBufferView, size: number): Float32Array {
  if (data instanceof Float32Array) return data.length === size ? data : data.slice(data.length - size);
  const count = data.byteLength / 2;
  const bits = new Uint16Array(data.buffer, data.byteOffset + (count - size) * 2, size);
  const table = halves();
  const out = new Float32Array(size);
  for (let i = 0; i < size; i++) out[i] = table[bits[i]!]!;
  return out;
}
