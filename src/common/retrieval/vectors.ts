import { TopK, type Ranked } from './top-k';

/**
 * Exact nearest-neighbour search by dot product (cosine for unit vectors) over rows kept in one
 * growing Float32Array; removal moves the last row into the hole.
 */
export class VectorIndex {
  private data: Float32Array;
  private readonly ids: string[] = [];
  private readonly rows = new Map<string, number>();

  constructor(
    readonly dimensions: number,
    capacity = 1024,
  ) {
    this.data = new Float32Array(dimensions * capacity);
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
      if ((row + 1) * this.dimensions > this.data.length) {
        const grown = new Float32Array(this.data.length * 2);
        grown.set(this.data);
        this.data = grown;
      }
      this.ids.push(id);
      this.rows.set(id, row);
    }
    this.data.set(vector, row * this.dimensions);
  }

  remove(id: string): void {
    const row = this.rows.get(id);
    if (row === undefined) return;
    const last = this.ids.length - 1;
    if (row !== last) {
      const moved = this.ids[last]!;
      this.data.copyWithin(row * this.dimensions, last * this.dimensions, (last + 1) * this.dimensions);
      this.ids[row] = moved;
      this.rows.set(moved, row);
    }
    this.ids.pop();
    this.rows.delete(id);
  }

  /** The `k` accepted rows most similar to `query`, best first. */
  top(query: Float32Array, k: number, accept?: (id: string) => boolean): Ranked[] {
    const best = new TopK(k);
    const { data, dimensions: dim, ids } = this;
    // Four running sums: independent chains the CPU overlaps (the dot product is the whole cost).
    const whole = dim - (dim % 4);
    for (let row = 0, base = 0; row < ids.length; row++, base += dim) {
      const id = ids[row]!;
      if (accept && !accept(id)) continue;
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
      for (; d < dim; d++) a0 += data[base + d]! * query[d]!;
      best.offer(id, a0 + a1 + a2 + a3);
    }
    return best.sorted();
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
