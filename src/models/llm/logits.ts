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

/** The last `size` values of float32 or float16 logits, as a fresh Float32Array. */
export function lastRow(data: ArrayBufferView, size: number): Float32Array {
  if (data instanceof Float32Array) return data.slice(data.length - size);
  const count = data.byteLength / 2;
  const bits = new Uint16Array(data.buffer, data.byteOffset + (count - size) * 2, size);
  const table = halves();
  const out = new Float32Array(size);
  for (let i = 0; i < size; i++) out[i] = table[bits[i]!]!;
  return out;
}
