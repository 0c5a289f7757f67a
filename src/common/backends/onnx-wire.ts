/** Visits one length-delimited field of a message: its number and the bytes [from, to) it holds. */
export type FieldVisitor = (field: number, from: number, to: number) => void;

/**
 * Reads an ONNX model (a protobuf ModelProto) straight from the wire format: `fields(start, end,
 * visit)` visits the length-delimited fields of the message in [start, end) and skips the rest, so
 * a reader descends only where it needs to and inline weights cost nothing. `visit` may descend.
 */
export function onnxWire(model: Uint8Array) {
  let pos = 0;
  const varint = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = model[pos++]!;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  };
  const utf8 = new TextDecoder();
  return {
    fields: (start: number, end: number, visit: FieldVisitor): void => {
      pos = start;
      while (pos < end) {
        const key = varint();
        const type = key % 8;
        if (type === 0) varint();
        else if (type === 1) pos += 8;
        else if (type === 5) pos += 4;
        else if (type === 2) {
          const length = varint();
          const from = pos;
          visit(Math.floor(key / 8), from, from + length);
          pos = from + length;
        } else throw new Error(`Not an ONNX model (wire type ${type} at byte ${pos}).`);
      }
    },
    text: (from: number, to: number) => utf8.decode(model.subarray(from, to)),
  };
}
