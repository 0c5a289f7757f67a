import { TopK, type Ranked } from './top-k';
import { dotKernel, type Scores } from './dot-kernel';

/** Rows are padded to this many floats (the kernel takes 16 a step; the padding stays zero). */
const LANES = 16;
const PAGE = 65_536;

/**
 * Exact nearest-neighbour search by dot product (cosine for unit vectors) over rows kept in one
 * growing block, scanned by a WebAssembly SIMD kernel (a plain loop where the engine has none);
 * removal moves the last row into the hole. With the kernel the block lives in a WebAssembly
 * memory laid out as [query][rows][scores].
 */
export class VectorIndex {
  private readonly stride: number;
  private readonly memory: WebAssembly.Memory | undefined;
  private readonly kernel: Scores | undefined;
  private capacity: number;
  private data: Float32Array;
  private readonly ids: string[] = [];
  private readonly rows = new Map<string, number>();

  constructor(
    readonly dimensions: number,
    capacity = 1024,
  ) {
    this.stride = Math.max(LANES, Math.ceil(dimensions / LANES) * LANES);
    this.capacity = capacity;
    const kernel = dotKernel();
    if (kernel) {
      this.memory = new WebAssembly.Memory({ initial: Math.ceil(this.bytes(capacity) / PAGE) });
      this.kernel = kernel(this.memory);
    }
    this.data = this.view();
  }

  get size(): number {
    return this.ids.length;
  }

  has(id: string): boolean {
    return this.rows.has(id);
  }

  set(id: string, vector: Float32Array): void {
    if (vector.length !== this.dimensions)
      throw new Error(`A vector of ${vector.length} dimensions cannot join an index of ${this.dimensions}.`);
    let row = this.rows.get(id);
    if (row === undefined) {
      row = this.ids.length;
      if (row === this.capacity) this.grow();
      this.ids.push(id);
      this.rows.set(id, row);
    }
    const start = row * this.stride;
    this.data.set(vector, start);
    this.data.fill(0, start + this.dimensions, start + this.stride);
  }

  remove(id: string): void {
    const row = this.rows.get(id);
    if (row === undefined) return;
    const last = this.ids.length - 1;
    if (row !== last) {
      const moved = this.ids[last]!;
      this.data.copyWithin(row * this.stride, last * this.stride, (last + 1) * this.stride);
      this.ids[row] = moved;
      this.rows.set(moved, row);
    }
    this.ids.pop();
    this.rows.delete(id);
  }

  /** The `k` accepted rows most similar to `query`, best first. */
  top(query: Float32Array, k: number, accept?: (id: string) => boolean): Ranked[] {
    const best = new TopK(k);
    const { ids } = this;
    const scores = this.scores(query.length > this.dimensions ? query.subarray(0, this.dimensions) : query);
    for (let row = 0; row < ids.length; row++) {
      const id = ids[row]!;
      if (!accept || accept(id)) best.offer(id, scores[row]!);
    }
    return best.sorted();
  }

  /** Every row's dot product with `query`, in row order. */
  private scores(query: Float32Array): Float32Array {
    const { stride, ids } = this;
    const count = ids.length;
    if (this.memory && this.kernel) {
      const { buffer } = this.memory;
      const padded = new Float32Array(buffer, 0, stride);
      padded.fill(0);
      padded.set(query);
      const out = (stride + this.capacity * stride) * 4;
      this.kernel(0, stride * 4, count, stride, out);
      return new Float32Array(buffer, out, count);
    }
    const { data } = this;
    const scores = new Float32Array(count);
    // Four running sums: independent chains the CPU overlaps (the dot product is the whole cost).
    const whole = query.length - (query.length % 4);
    for (let row = 0, base = 0; row < count; row++, base += stride) {
      let a0 = 0;
      let a1 = 0;
      let a2 = 0;
      let a3 = 0;
      let d = 0;
      for (; d < whole; d += 4) {
        a0 += data[base + d]! * query[d]!;
        a1 += data[base + d + 1]! * query[d + 1]!;
        a2 += data[base + d + 2]! * query[d + 2]!;
        a3 += data[base + d + 3]! * query[d + 3]!;
      }
      for (; d < query.length; d++) a0 += data[base + d]! * query[d]!;
      scores[row] = a0 + a1 + a2 + a3;
    }
    return scores;
  }

  /** Bytes of the memory for `capacity` rows: the query, the rows, a score per row. */
  private bytes(capacity: number): number {
    return (this.stride + capacity * (this.stride + 1)) * 4;
  }

  /** The rows' block: in the memory after the query, else an array of its own. */
  private view(): Float32Array {
    const length = this.capacity * this.stride;
    return this.memory ? new Float32Array(this.memory.buffer, this.stride * 4, length) : new Float32Array(length);
  }

  /** Doubles the capacity; the rows stay where they are (the scores' scratch space moves past them). */
  private grow(): void {
    const before = this.data;
    this.capacity *= 2;
    if (this.memory) {
      const needed = Math.ceil(this.bytes(this.capacity) / PAGE) - this.memory.buffer.byteLength / PAGE;
      if (needed > 0) this.memory.grow(needed);
      this.data = this.view();
    } else {
      this.data = this.view();
      this.data.set(before);
    }
  }
}

/** Divides by the L2 norm in place (a zero vector stays zero) and returns the vector. */
export function normalizeL2(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i] = vector[i]! / norm;
  return vector;
}
