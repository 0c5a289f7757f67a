import { float16ToFloat32 } from '../../common/float16';

/**
 * The last `size` values of float32 or float16 logits as a Float32Array the caller may change. The
 * runtime's output is fresh each run, so a single float32 row is returned as it is: a copy of a
 * whole vocabulary's row every decode step costs a visible share of the step (docs/performance.md). Several rows (a prompt) are cut to the last one, so the rest can be freed.
 */
export function lastRow(data: ArrayBufferView, size: number): Float32Array {
  if (data instanceof Float32Array) return data.length === size ? data : data.slice(data.length - size);
  const count = data.byteLength / 2;
  return float16ToFloat32(new Uint16Array(data.buffer, data.byteOffset + (count - size) * 2, size));
}
