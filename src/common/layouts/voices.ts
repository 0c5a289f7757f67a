import { EngineError } from '../../protocol/errors';

/** The onnx-community file for a dtype; q8 (model_quantized.onnx) unless the model source names another. */
export function modelFile(dtype = 'q8'): string {
  const suffix: Record<string, string> = {
    fp32: '',
    fp16: '_fp16',
    q8: '_quantized',
    int8: '_quantized',
    uint8: '_uint8',
    q8f16: '_q8f16',
    q4: '_q4',
    q4f16: '_q4f16',
  };
  const name = suffix[dtype];
  if (name === undefined)
    throw new EngineError(
      'invalid_input',
      `Unknown dtype '${dtype}' for a neural voice; use one of ${Object.keys(suffix).join(', ')}.`,
      'invalid_value',
      'model',
    );
  return `onnx/model${name}.onnx`;
}
