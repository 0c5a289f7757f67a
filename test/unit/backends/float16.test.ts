import { Float16Array as Polyfill, getFloat16 } from '@petamoriken/float16';
import { afterEach, describe, expect, it } from 'vitest';
import { float16ToFloat32, float32ToFloat16, halfToFloat } from '../../../src/common/float16';

const every = Uint16Array.from({ length: 65536 }, (_, i) => i);
const reference = (bits: Uint16Array) => {
  const view = new DataView(bits.buffer, bits.byteOffset, bits.byteLength);
  return Float32Array.from({ length: bits.length }, (_, i) => getFloat16(view, i * 2, true));
};
const global = globalThis as { Float16Array?: unknown };
const own = global.Float16Array;

afterEach(() => {
  global.Float16Array = own;
});

describe.each([
  ['without Float16Array (the lookup table)', undefined],
  ['with Float16Array', Polyfill],
])('float16 %s', (_, Half) => {
  it('widens every bit pattern as @petamoriken/float16 does (subnormals, ±0, ±Infinity, NaN)', () => {
    global.Float16Array = Half;
    const wide = float16ToFloat32(every);
    const expected = reference(every);
    const differ = every.filter((bits) => !Object.is(wide[bits], expected[bits]));
    expect(differ).toEqual(new Uint16Array(0));
    expect(Object.is(halfToFloat(0x8000), -0)).toBe(true);
    expect(halfToFloat(0x7c00)).toBe(Infinity);
    expect(halfToFloat(0x0001)).toBe(2 ** -24);
  });

  it('reads a view at an offset and narrows with round to nearest even', () => {
    global.Float16Array = Half;
    const offset = new Uint16Array(every.buffer, 2 * 1000, 3);
    expect(Array.from(float16ToFloat32(offset))).toEqual(Array.from(reference(offset)));
    const values = [0, -0, 1, 65504, 70000, 1 + 2 ** -11, 1 + 3 * 2 ** -11, 2 ** -25, Number.NaN, -Infinity];
    expect(Array.from(float32ToFloat16(values))).toEqual([
      0x0000, 0x8000, 0x3c00, 0x7bff, 0x7c00, 0x3c00, 0x3c02, 0x0000, 0x7e00, 0xfc00,
    ]);
  });
});
