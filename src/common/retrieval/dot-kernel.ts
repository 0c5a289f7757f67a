/**
 * The exact scan's WebAssembly SIMD kernel, `scores(query, rows, count, stride, out)` (byte offsets
 * in the memory it is given): the dot product of the query with each of `count` rows of `stride`
 * float32s (a multiple of 16; the padding zero) into `out`, four f32x4 sums a row. Hand-assembled
 * (each byte run commented with what it does): the module is 318 bytes.
 */
const SIMD = 0xfd;
const v128Load = (offset: number) => [SIMD, 0x00, 0x02, offset];
const f32x4Add = [SIMD, 0xe4, 0x01];
const f32x4Mul = [SIMD, 0xe6, 0x01];
const lane = (i: number) => [SIMD, 0x1f, i];
const get = (i: number) => [0x20, i];
const set = (i: number) => [0x21, i];
const tee = (i: number) => [0x22, i];
const I32_ADD = 0x6a;

// Locals: 0 query, 1 row, 2 count, 3 stride, 4 out (params); 5 end, 6 rowBytes, 7 d; 8–11 sums, 12 total.
// sum k += v128.load(row + d + 16k) * v128.load(query + d + 16k)
// prettier-ignore
const step = (k: number) => [
  ...get(8 + k),
  ...get(1), ...get(7), I32_ADD, ...v128Load(16 * k),
  ...get(0), ...get(7), I32_ADD, ...v128Load(16 * k),
  ...f32x4Mul, ...f32x4Add, ...set(8 + k),
];

// prettier-ignore
const body = [
  0x02, 0x03, 0x7f, 0x05, 0x7b, // locals: 3 × i32, 5 × v128
  ...get(3), 0x41, 0x02, 0x74, ...set(6), // rowBytes = stride << 2
  ...get(1), ...get(2), ...get(6), 0x6c, I32_ADD, ...set(5), // end = row + count * rowBytes
  0x02, 0x40, // block
  ...get(1), ...get(5), 0x4f, 0x0d, 0x00, // br_if row >= end
  0x03, 0x40, // loop (rows)
  SIMD, 0x0c, ...new Array(16).fill(0), ...tee(8), ...tee(9), ...tee(10), ...set(11), // sums = 0
  0x41, 0x00, ...set(7), // d = 0
  0x03, 0x40, // loop (dimensions, 16 at a time)
  ...step(0), ...step(1), ...step(2), ...step(3),
  ...get(7), 0x41, 0xc0, 0x00, I32_ADD, ...tee(7), ...get(6), 0x49, 0x0d, 0x00, // d += 64; br_if d < rowBytes
  0x0b, // end loop
  ...get(8), ...get(9), ...f32x4Add, ...get(10), ...get(11), ...f32x4Add, ...f32x4Add, ...set(12),
  ...get(4),
  ...get(12), ...lane(0), ...get(12), ...lane(1), 0x92,
  ...get(12), ...lane(2), ...get(12), ...lane(3), 0x92, 0x92,
  0x38, 0x02, 0x00, // f32.store out
  ...get(4), 0x41, 0x04, I32_ADD, ...set(4), // out += 4
  ...get(1), ...get(6), I32_ADD, ...tee(1), ...get(5), 0x49, 0x0d, 0x00, // row += rowBytes; br_if row < end
  0x0b, // end loop
  0x0b, // end block
  0x0b, // end function
];

const section = (id: number, bytes: number[]) => [id, ...leb(bytes.length), ...bytes];
function leb(value: number): number[] {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value) byte |= 0x80;
    out.push(byte);
  } while (value);
  return out;
}
const name = (text: string) => [text.length, ...Array.from(text, (c) => c.charCodeAt(0))];

// prettier-ignore
const KERNEL = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  ...section(1, [0x01, 0x60, 0x05, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x00]), // (i32 × 5) -> ()
  ...section(2, [0x01, ...name('env'), ...name('memory'), 0x02, 0x00, 0x00]), // import env.memory
  ...section(3, [0x01, 0x00]),
  ...section(7, [0x01, ...name('scores'), 0x00, 0x00]),
  ...section(10, [0x01, ...leb(body.length), ...body]),
]);

/** Writes the dot products of a query with `count` rows into `out` (byte offsets; see above). */
export type Scores = (query: number, rows: number, count: number, stride: number, out: number) => void;

let compiled: WebAssembly.Module | null | undefined;

/** Binds the kernel to a memory; undefined where the engine has no WebAssembly SIMD. */
export function dotKernel(): ((memory: WebAssembly.Memory) => Scores) | undefined {
  if (compiled === undefined)
    try {
      compiled =
        typeof WebAssembly === 'object' && WebAssembly.validate(KERNEL) ? new WebAssembly.Module(KERNEL) : null;
    } catch {
      compiled = null;
    }
  const module = compiled;
  return module
    ? (memory) => new WebAssembly.Instance(module, { env: { memory } }).exports.scores as Scores
    : undefined;
}
