import {
  concatBytes as concat,
  ONNX_TYPE,
  tensorValueInfo,
  textField,
  wireField as field,
  wireGraph,
  type WireNode,
} from '../../common/backends/onnx-wire';

/** The graph inputs `lengthsAsInputs` gives every GroupQueryAttention node for its lengths. */
export const LENGTH_INPUTS = ['seqlens_k', 'total_seq_len'] as const;

/**
 * For graph capture (docs/architecture.md, Chat): an onnxruntime-genai GroupQueryAttention export
 * made to take the operator's lengths as graph inputs. The builder computes `seqlens_k` (tokens in
 * the mask − 1) and `total_sequence_length` from `attention_mask` with int64 ops that the WebGPU EP
 * leaves on the CPU, where a replayed step has nothing to run them. Here every GroupQueryAttention
 * node reads `seqlens_k` (int32 [batch_size]) and `total_seq_len` (int32 scalar) from the feeds, and
 * the ops that only computed them go. Edited on the wire: every other field, weights included, is
 * copied as it is. Undefined when the graph has no GroupQueryAttention node, or one with under 7
 * inputs.
 */
export function lengthsAsInputs(model: Uint8Array): Uint8Array | undefined {
  const graph = wireGraph(model);
  if (!graph) return undefined;
  const all = [...graph.nodes.values()];
  const attention = all.filter((node) => node.op === 'GroupQueryAttention');
  if (!attention.length || attention.some((node) => node.inputs.length < 7)) return undefined;
  for (const node of attention) [node.inputs[5], node.inputs[6]] = LENGTH_INPUTS;
  // Keep what still reaches an output, until nothing more goes.
  let kept = all;
  for (let count = -1; count !== kept.length;) {
    count = kept.length;
    const used = new Set([...kept.flatMap((node) => node.inputs), ...graph.outputs]);
    kept = kept.filter((node) => node.outputs.some((output) => used.has(output)));
  }
  const keep = new Set(kept);
  const nodeBytes = (node: WireNode): Uint8Array => {
    if (node.op !== 'GroupQueryAttention') return graph.verbatim(node.span);
    let input = 0;
    const parts = node.fields.map((f) => (f.number === 1 ? textField(1, node.inputs[input++]!) : graph.verbatim(f)));
    return field(1, concat(parts));
  };
  const parts: Uint8Array[] = [];
  let afterInputs = -1;
  for (const span of graph.fields) {
    const node = graph.nodes.get(span);
    if (!node) parts.push(graph.verbatim(span));
    else if (keep.has(node)) parts.push(nodeBytes(node));
    if (span.number === 11) afterInputs = parts.length;
  }
  if (!graph.inputs.includes(LENGTH_INPUTS[0]))
    parts.splice(
      afterInputs < 0 ? parts.length : afterInputs,
      0,
      field(11, tensorValueInfo(LENGTH_INPUTS[0], ONNX_TYPE.int32, ['batch_size'])),
      field(11, tensorValueInfo(LENGTH_INPUTS[1], ONNX_TYPE.int32, [])),
    );
  return graph.withGraph(parts);
}
