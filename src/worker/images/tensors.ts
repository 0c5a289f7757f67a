import type { Ort, OrtSession } from '../../common/backends/ort';
import { float16ToFloat32, float32ToFloat16 } from '../../common/float16';

type Tensor = import('onnxruntime-web').Tensor;

/** The element type a session declares for an input (float32 when it does not say). */
export function inputType(session: Pick<OrtSession, 'inputMetadata'>, name: string): string {
  const meta = session.inputMetadata.find((m) => m.name === name);
  return meta && meta.isTensor ? meta.type : 'float32';
}

/** A float tensor in the dtype the session wants for `name` (float16 or float32). */
export function floatFeed(ort: Ort, session: OrtSession, name: string, data: Float32Array, dims: number[]): Tensor {
  if (inputType(session, name) !== 'float16') return new ort.Tensor('float32', data, dims);
  return new ort.Tensor('float16', float32ToFloat16(data), dims);
}

/** An integer tensor in the dtype the session wants for `name` (int64, int32 or a float type). */
export function intFeed(ort: Ort, session: OrtSession, name: string, values: number[], dims: number[]): Tensor {
  const type = inputType(session, name);
  if (type === 'int64') return new ort.Tensor('int64', BigInt64Array.from(values, BigInt), dims);
  if (type === 'int32') return new ort.Tensor('int32', Int32Array.from(values), dims);
  return floatFeed(ort, session, name, Float32Array.from(values), dims);
}

/** Float32 values of a float32 or float16 output (read back from the GPU when it lives there, freeing it there). */
export async function floats(tensor: Tensor): Promise<Float32Array> {
  const data = (tensor.location === 'cpu' ? tensor.data : await tensor.getData(true)) as Float32Array | Uint16Array;
  if (data instanceof Float32Array) return data;
  return float16ToFloat32(data);
}
