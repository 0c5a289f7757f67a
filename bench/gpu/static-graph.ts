/**
 * For graph capture: an onnxruntime-genai GroupQueryAttention export made to take the operator's
 * lengths as graph inputs. The builder computes `seqlens_k` (tokens in the mask − 1) and
 * `total_sequence_length` (the mask's width) from `attention_mask` with int64 ops, which
 * onnxruntime's WebGPU EP leaves on the CPU, where a captured replay has nothing to run them: every
 * GroupQueryAttention node here reads `seqlens_k` (int32 [batch_size]) and `total_seq_len` (int32
 * scalar) from the feeds instead, and the ops that only computed them go. Weights in external data
 * stay where they are (the graph names them by path).
 */
import { DataType, onnx, valueInfo } from '../../test/fixtures/llm/onnx-builder';

export const LENGTH_INPUTS = ['seqlens_k', 'total_seq_len'] as const;

export function lengthsAsInputs(graphBytes: Uint8Array): Uint8Array {
  const model = onnx.ModelProto.decode(graphBytes);
  const graph = model.graph!;
  const nodes = graph.node ?? [];
  const attention = nodes.filter((node) => node.opType === 'GroupQueryAttention');
  if (!attention.length) throw new Error('the graph has no GroupQueryAttention node');
  for (const node of attention) [node.input![5], node.input![6]] = LENGTH_INPUTS;
  const inputs = (graph.input ??= []);
  if (!inputs.some((input) => input.name === LENGTH_INPUTS[0]))
    inputs.push(
      valueInfo(LENGTH_INPUTS[0], DataType.int32, ['batch_size']),
      valueInfo(LENGTH_INPUTS[1], DataType.int32, []),
    );
  // Drop what no longer reaches an output, until nothing more goes.
  let kept = nodes;
  for (let count = -1; count !== kept.length;) {
    count = kept.length;
    const used = new Set([...kept.flatMap((node) => node.input ?? []), ...(graph.output ?? []).map((o) => o.name)]);
    kept = kept.filter((node) => (node.output ?? []).some((output) => used.has(output)));
  }
  graph.node = kept;
  return onnx.ModelProto.encode(model).finish();
}
