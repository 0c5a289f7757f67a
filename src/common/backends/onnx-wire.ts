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
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = bytes[pos++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
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
