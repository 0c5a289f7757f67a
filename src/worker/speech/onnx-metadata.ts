import { onnxWire } from '../../common/backends/onnx-wire';

/** ModelProto's metadata_props (field 14): StringStringEntryProto { key = 1, value = 2 }. */
const METADATA_PROPS = 14;

/** An ONNX model's metadata_props as a record, read from the file's bytes (onnxruntime-web does not expose them). */
export function onnxMetadata(model: Uint8Array): Record<string, string> {
  const wire = onnxWire(model);
  const props: Record<string, string> = {};
  wire.fields(0, model.length, (field, from, to) => {
    if (field !== METADATA_PROPS) return;
    let key = '';
    let value = '';
    wire.fields(from, to, (entry, start, end) => {
      if (entry === 1) key = wire.text(start, end);
      else if (entry === 2) value = wire.text(start, end);
    });
    props[key] = value;
  });
  return props;
}
