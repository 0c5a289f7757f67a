/**
 * The external-data file names an ONNX graph refers to (TensorProto.external_data "location"), read
 * straight from the protobuf wire format: AI4Bharat's fp32 encoder keeps its weights in a few hundred
 * files beside encoder.onnx, which onnxruntime-web must be handed by name.
 */
export function externalDataFiles(model: Uint8Array): string[] {
  const found = new Set<string>();
  const utf8 = new TextDecoder();
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
  /** Visits the length-delimited fields of the message in [start, end); `visit` may descend. */
  const fields = (start: number, end: number, visit: (field: number, from: number, to: number) => void) => {
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
        pos += length;
        visit(Math.floor(key / 8), from, pos);
        pos = from + length;
      } else throw new Error(`Not an ONNX model (wire type ${type} at byte ${pos}).`);
    }
  };
  const tensor = (start: number, end: number) =>
    fields(start, end, (field, from, to) => {
      if (field !== 13) return;
      let key = '';
      let value = '';
      fields(from, to, (f, a, b) => {
        if (f === 1) key = utf8.decode(model.subarray(a, b));
        if (f === 2) value = utf8.decode(model.subarray(a, b));
      });
      if (key === 'location' && value) found.add(value);
    });
  const attribute = (start: number, end: number) =>
    fields(start, end, (field, from, to) => {
      if (field === 5 || field === 10) tensor(from, to);
      if (field === 6 || field === 11) graph(from, to);
    });
  const graph = (start: number, end: number): void =>
    fields(start, end, (field, from, to) => {
      if (field === 5) tensor(from, to);
      if (field === 1) fields(from, to, (f, a, b) => f === 5 && attribute(a, b));
    });
  fields(0, model.length, (field, from, to) => field === 7 && graph(from, to));
  return [...found];
}
