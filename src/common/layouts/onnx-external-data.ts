import { onnxWire } from '../backends/onnx-wire';

/**
 * The external-data file names an ONNX graph refers to (TensorProto.external_data "location"), read
 * straight from the protobuf wire format: AI4Bharat's fp32 encoder keeps its weights in a few hundred
 * files beside encoder.onnx, which onnxruntime-web must be handed by name.
 */
export function externalDataFiles(model: Uint8Array): string[] {
  const found = new Set<string>();
  const { fields, text } = onnxWire(model);
  const tensor = (start: number, end: number) =>
    fields(start, end, (field, from, to) => {
      if (field !== 13) return;
      let key = '';
      let value = '';
      fields(from, to, (f, a, b) => {
        if (f === 1) key = text(a, b);
        if (f === 2) value = text(a, b);
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
