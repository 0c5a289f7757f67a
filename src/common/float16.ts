import { setFloat16 } from '@petamoriken/float16';

/** The engine's own `Float16Array` (Chromium 135, Firefox 129, Safari 18.2), where it has one. */
type Float16ArrayLike = ArrayLike<number> & ArrayBufferView;
type Float16ArrayConstructor = {
  new (buffer: ArrayBufferLike, byteOffset?: number, length?: number): Float16ArrayLike;
  from(values: ArrayLike<number>): Float16ArrayLike;
};
const native = (): Float16ArrayConstructor | undefined =>
  (globalThis as { Float16Array?: Float16ArrayConstructor }).Float16Array;

/** One float16 bit pattern as a number (IEEE 754 binary16: subnormals, infinities, NaN). */
export function halfToFloat(bits: number): number {
  const exponent = (bits >>> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  const sign = bits & 0x8000 ? -1 : 1;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 0x1f) return mantissa ? Number.NaN : sign * Infinity;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

let table: Float32Array | undefined;

/** Every float16 bit pattern as a float32, built once where the engine has no Float16Array. */
function halves(): Float32Array {
  if (table) return table;
  table = new Float32Array(65536);
  for (let bits = 0; bits < 65536; bits++) table[bits] = halfToFloat(bits);
  return table;
}

/** float16 bit patterns widened to a new Float32Array. */
export function float16ToFloat32(bits: Uint16Array): Float32Array {
  const Half = native();
  if (Half && bits.byteOffset % 2 === 0) return new Float32Array(new Half(bits.buffer, bits.byteOffset, bits.length));
  const lookup = halves();
  const out = new Float32Array(bits.length);
  for (let i = 0; i < bits.length; i++) out[i] = lookup[bits[i]!]!;
  return out;
}

/** float32 values narrowed to float16 bit patterns (round to nearest even). */
export function float32ToFloat16(values: ArrayLike<number>): Uint16Array {
  const Half = native();
  if (Half) {
    const half = Half.from(values);
    return new Uint16Array(half.buffer, half.byteOffset, half.length);
  }
  const view = new DataView(new ArrayBuffer(values.length * 2));
  for (let i = 0; i < values.length; i++) setFloat16(view, i * 2, values[i]!, true);
  return new Uint16Array(view.buffer);
}
