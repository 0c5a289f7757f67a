import type { Pooling } from './config';

/**
 * One vector per row from token states `hidden` [batch, seq, dim] under the 0/1 `mask` [batch, seq]:
 * the masked mean, the first token (CLS), or the last attended token (works for left and right padding).
 */
export function pool(hidden: Float32Array, dims: readonly number[], mask: ArrayLike<number | bigint>, method: Pooling) {
  const [batch, seq, dim] = dims as [number, number, number];
  const rows: Float32Array[] = [];
  for (let b = 0; b < batch; b++) {
    const base = b * seq * dim;
    const out = new Float32Array(dim);
    if (method === 'mean') {
      let count = 0;
      for (let s = 0; s < seq; s++) {
        if (!Number(mask[b * seq + s])) continue;
        count++;
        const offset = base + s * dim;
        for (let d = 0; d < dim; d++) out[d]! += hidden[offset + d]!;
      }
      for (let d = 0; d < dim; d++) out[d] = out[d]! / Math.max(count, 1);
    } else {
      let position = 0;
      if (method === 'last') for (let s = 0; s < seq; s++) if (Number(mask[b * seq + s])) position = s;
      out.set(hidden.subarray(base + position * dim, base + (position + 1) * dim));
    }
    rows.push(out);
  }
  return rows;
}
