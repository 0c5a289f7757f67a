import { onnxWire } from '../../common/backends/onnx-wire';

/**
 * The operators of an ONNX model, as `domain:op_type` ('' for the ONNX domain), in its graph and the
 * graphs nested in node attributes; read from the wire format, skipping the weights.
 */
export function graphOperators(model: Uint8Array): Set<string> {
  const found = new Set<string>();
  const { fields, text } = onnxWire(model);
  const node = (start: number, end: number) => {
    let op = '';
    let domain = '';
    fields(start, end, (field, from, to) => {
      if (field === 4) op = text(from, to);
      if (field === 7) domain = text(from, to);
      if (field === 5)
        fields(from, to, (f, a, b) => {
          if (f === 6 || f === 11) graph(a, b);
        });
    });
    found.add(`${domain === 'ai.onnx' ? '' : domain}:${op}`);
  };
  const graph = (start: number, end: number): void =>
    fields(start, end, (field, from, to) => {
      if (field === 1) node(from, to);
    });
  fields(0, model.length, (field, from, to) => field === 7 && graph(from, to));
  return found;
}

/**
 * Fused attention that takes a mask or bias the export computes itself. onnxruntime-genai's builder
 * (MultiHeadAttention: its fp16 CPU exports, such as the upstream fixture) builds that mask for a
 * prompt with no past or for one new token only: a run with a past and several new tokens fails.
 */
const MASKED_ATTENTION = ['com.microsoft:MultiHeadAttention', 'com.microsoft:Attention'];

/**
 * Whether a prompt can be fed in chunks, each after the cache of the ones before. Graphs of standard
 * ops (onnx-community, optimum) mask past and new positions together; GroupQueryAttention masks from
 * `seqlens_k` and `total_sequence_length`, which onnxruntime computes for a past plus new tokens.
 * Fused attention behind an export-made mask gets the whole prompt in one run, as onnxruntime-genai
 * feeds it.
 */
export function takesChunks(operators: ReadonlySet<string>): boolean {
  return !MASKED_ATTENTION.some((op) => operators.has(op));
}
