/** Visits one length-delimited field of a message: its number and the bytes [from, to) it holds. */
export type FieldVisitor = (field: number, from: number, to: number) => void;

/**
 * Reads an ONNX model (a protobuf ModelProto) straight from the wire format: `fields(start, end,
 * visit)` visits the length-delimited fields of the message in [start, end) and skips the rest, so
 * a reader descends only where it needs to and inline weights cost nothing. `visit` may descend.
 */
export function onnxWire(model: Uint8Array) {
  const utf8 = new TextDecoder();
  return {
    fields: (start: number, end: number, visit: FieldVisitor): void => {
      for (const field of wireFields(model, start, end)) if (field.delimited) visit(field.number, field.from, field.to);
    },
    text: (from: number, to: number) => utf8.decode(model.subarray(from, to)),
  };
}

/** One field of a protobuf message on the wire. */
export interface WireField {
  number: number;
  /** Length-delimited (a string, bytes or a message): its contents are [from, to). */
  delimited: boolean;
  /** Where the field's key starts and where the field ends: its bytes, to copy as they are. */
  at: number;
  end: number;
  from: number;
  to: number;
}

/** Every field of the message in [start, end), of any wire type, in order. */
export function wireFields(bytes: Uint8Array, start: number, end: number): WireField[] {
  let pos = start;
  const varint = (): number => {
    const read = readVarint(bytes, pos);
    pos = read.next;
    return read.value;
  };
  const out: WireField[] = [];
  while (pos < end) {
    const at = pos;
    const key = varint();
    const type = key % 8;
    let from = pos;
    if (type === 0) varint();
    else if (type === 1) pos += 8;
    else if (type === 5) pos += 4;
    else if (type === 2) {
      const length = varint();
      from = pos;
      pos += length;
    } else throw new Error(`Not an ONNX model (wire type ${type} at byte ${at}).`);
    out.push({ number: Math.floor(key / 8), delimited: type === 2, at, end: pos, from, to: type === 2 ? pos : from });
  }
  return out;
}

/** Protobuf's base-128 varint. */
export function varint(value: number): number[] {
  const out: number[] = [];
  for (; value >= 0x80; value = Math.floor(value / 128)) out.push((value % 128) | 0x80);
  out.push(value);
  return out;
}

/** One length-delimited field: its key, length and bytes. */
export function wireField(number: number, bytes: Uint8Array | number[]): Uint8Array {
  const head = [...varint(number * 8 + 2), ...varint(bytes.length)];
  const out = new Uint8Array(head.length + bytes.length);
  out.set(head);
  out.set(bytes, head.length);
  return out;
}

/** One varint field: its key and value. */
export const varintField = (number: number, value: number): Uint8Array =>
  new Uint8Array([...varint(number * 8), ...varint(value)]);

export function concatBytes(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const encoder = new TextEncoder();
/** A string field. */
export const textField = (number: number, text: string): Uint8Array => wireField(number, encoder.encode(text));

/** ONNX's TensorProto.DataType numbers used by graph edits. */
export const ONNX_TYPE = { int32: 6, int64: 7 } as const;

/** A ValueInfoProto: a tensor named `name` of ONNX type `type` with dimensions `dims` (names of free dimensions). */
export function tensorValueInfo(name: string, type: number, dims: string[]): Uint8Array {
  const shape = concatBytes(dims.map((dim) => wireField(1, textField(2, dim))));
  const tensor = concatBytes([varintField(1, type), wireField(2, shape)]);
  return concatBytes([textField(1, name), wireField(2, wireField(1, tensor))]);
}

/** A NodeProto: `op` (in `domain`, '' for ONNX's) from `inputs` to `outputs`. */
export function nodeBytes(op: string, inputs: string[], outputs: string[], name: string, domain = ''): Uint8Array {
  return concatBytes([
    ...inputs.map((input) => textField(1, input)),
    ...outputs.map((output) => textField(2, output)),
    textField(3, name),
    textField(4, op),
    ...(domain ? [textField(7, domain)] : []),
  ]);
}

/** A TensorProto initializer: int64 `values` of shape `dims`, as raw little-endian data. */
export function int64Initializer(name: string, values: bigint[], dims: number[]): Uint8Array {
  const raw = new Uint8Array(BigInt64Array.from(values).buffer);
  return concatBytes([
    ...dims.map((dim) => varintField(1, dim)),
    varintField(2, ONNX_TYPE.int64),
    textField(8, name),
    wireField(9, raw),
  ]);
}

/** One NodeProto of a graph read by `wireGraph`. */
export interface WireNode {
  /** The node's field in the graph (its bytes, to copy as they are). */
  span: WireField;
  fields: WireField[];
  op: string;
  inputs: string[];
  outputs: string[];
}

/**
 * A model's main graph on the wire, for edits that copy everything else (weights included) as it
 * is: the model's and the graph's fields, its nodes, and the names of its inputs, outputs and
 * initializers. Undefined when the model has no graph.
 */
export function wireGraph(model: Uint8Array) {
  const utf8 = new TextDecoder();
  const text = (span: WireField) => utf8.decode(model.subarray(span.from, span.to));
  const top = wireFields(model, 0, model.length);
  const graphField = top.find((span) => span.number === 7);
  if (!graphField) return undefined;
  const fields = wireFields(model, graphField.from, graphField.to);
  const nodes = new Map<WireField, WireNode>();
  for (const span of fields.filter((s) => s.number === 1)) {
    const own = wireFields(model, span.from, span.to);
    const of = (n: number) => own.filter((f) => f.number === n).map(text);
    nodes.set(span, { span, fields: own, op: of(4)[0] ?? '', inputs: of(1), outputs: of(2) });
  }
  /** Names in the graph's field `n` (ValueInfoProto name 1; TensorProto name 8). */
  const names = (n: number, nameField = 1) =>
    fields
      .filter((s) => s.number === n)
      .map((s) => wireFields(model, s.from, s.to).find((f) => f.number === nameField))
      .filter((f) => f !== undefined)
      .map(text);
  /** The version of the ONNX domain's operator set. */
  const opset = top
    .filter((span) => span.number === 8)
    .map((span) => {
      const own = wireFields(model, span.from, span.to);
      const domain = own.find((f) => f.number === 1);
      const version = own.find((f) => f.number === 2 && !f.delimited);
      const name = domain ? text(domain) : '';
      return (name === '' || name === 'ai.onnx') && version ? readVarint(model, version.from).value : undefined;
    })
    .find((v) => v !== undefined);
  return {
    top,
    graphField,
    fields,
    nodes,
    inputs: names(11),
    outputs: names(12),
    initializers: names(5, 8),
    opset,
    text,
    /** The field's bytes as they are. */
    verbatim: (span: WireField) => model.subarray(span.at, span.end),
    /** The model with the graph's fields replaced by `parts` (fields of the graph, encoded). */
    withGraph: (parts: Uint8Array[]) => {
      const graph = wireField(7, concatBytes(parts));
      return concatBytes(top.map((span) => (span === graphField ? graph : model.subarray(span.at, span.end))));
    },
  };
}

/** Protobuf's base-128 varint at `at`: its value and the byte after it. */
function readVarint(bytes: Uint8Array, at: number): { value: number; next: number } {
  let value = 0;
  for (let scale = 1; ; scale *= 128) {
    const byte = bytes[at++]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return { value, next: at };
  }
}
