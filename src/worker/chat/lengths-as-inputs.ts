import { wireFields, type WireField } from '../../common/backends/onnx-wire';

/** The graph inputs `lengthsAsInputs` gives every GroupQueryAttention node for its lengths. */
export const LENGTH_INPUTS = ['seqlens_k', 'total_seq_len'] as const;

/** Protobuf's base-128 varint. */
function varint(value: number): number[] {
  const out: number[] = [];
  for (; value >= 0x80; value = Math.floor(value / 128)) out.push((value % 128) | 0x80);
  out.push(value);
  return out;
}

/** One length-delimited field: its key, length and bytes. */
function field(number: number, bytes: Uint8Array | number[]): Uint8Array {
  const head = [...varint(number * 8 + 2), ...varint(bytes.length)];
  const out = new Uint8Array(head.length + bytes.length);
  out.set(head);
  out.set(bytes, head.length);
  return out;
}

const concat = (parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
};

const utf8 = new TextEncoder();
/** ONNX's TensorProto.DataType INT32. */
const INT32 = 6;

/** A ValueInfoProto: an int32 tensor named `name` with dimensions `dims` (names of free dimensions). */
function int32Input(name: string, dims: string[]): Uint8Array {
  const shape = concat(dims.map((dim) => field(1, field(2, utf8.encode(dim)))));
  const tensor = concat([new Uint8Array([0x08, ...varint(INT32)]), field(2, shape)]);
  return concat([field(1, utf8.encode(name)), field(2, field(1, tensor))]);
}

const utf8Decoder = new TextDecoder();

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
  const text = (span: WireField) => utf8Decoder.decode(model.subarray(span.from, span.to));
  const top = wireFields(model, 0, model.length);
  const graphField = top.find((span) => span.number === 7);
  if (!graphField) return undefined;
  const graph = wireFields(model, graphField.from, graphField.to);
  interface Node {
    span: WireField;
    fields: WireField[];
    op: string;
    inputs: string[];
    outputs: string[];
  }
  const nodes = new Map<WireField, Node>();
  const names = (n: number) =>
    graph.filter((s) => s.number === n).map((s) => text(wireFields(model, s.from, s.to).find((f) => f.number === 1)!));
  for (const span of graph.filter((s) => s.number === 1)) {
    const fields = wireFields(model, span.from, span.to);
    const of = (n: number) => fields.filter((f) => f.number === n).map(text);
    nodes.set(span, { span, fields, op: of(4)[0] ?? '', inputs: of(1), outputs: of(2) });
  }
  const all = [...nodes.values()];
  const attention = all.filter((node) => node.op === 'GroupQueryAttention');
  if (!attention.length || attention.some((node) => node.inputs.length < 7)) return undefined;
  for (const node of attention) [node.inputs[5], node.inputs[6]] = LENGTH_INPUTS;
  // Keep what still reaches an output, until nothing more goes.
  const outputs = names(12);
  let kept = all;
  for (let count = -1; count !== kept.length;) {
    count = kept.length;
    const used = new Set([...kept.flatMap((node) => node.inputs), ...outputs]);
    kept = kept.filter((node) => node.outputs.some((output) => used.has(output)));
  }
  const keep = new Set(kept);
  const verbatim = (span: WireField) => model.subarray(span.at, span.end);
  const nodeBytes = (node: Node): Uint8Array => {
    if (node.op !== 'GroupQueryAttention') return verbatim(node.span);
    let input = 0;
    const parts = node.fields.map((f) => (f.number === 1 ? field(1, utf8.encode(node.inputs[input++]!)) : verbatim(f)));
    return field(1, concat(parts));
  };
  const parts: Uint8Array[] = [];
  let afterInputs = -1;
  for (const span of graph) {
    const node = nodes.get(span);
    if (!node) parts.push(verbatim(span));
    else if (keep.has(node)) parts.push(nodeBytes(node));
    if (span.number === 11) afterInputs = parts.length;
  }
  if (!names(11).includes(LENGTH_INPUTS[0]))
    parts.splice(
      afterInputs < 0 ? parts.length : afterInputs,
      0,
      field(11, int32Input(LENGTH_INPUTS[0], ['batch_size'])),
      field(11, int32Input(LENGTH_INPUTS[1], [])),
    );
  const rewritten = concat(parts);
  return concat(top.map((span) => (span === graphField ? field(7, rewritten) : verbatim(span))));
}
