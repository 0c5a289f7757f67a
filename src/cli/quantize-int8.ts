import { open, readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import onnxProto, { type onnx } from 'onnx-proto';

const { onnx: proto } = onnxProto;
const DataType = proto.TensorProto.DataType;
const EXTERNAL = proto.TensorProto.DataLocation.EXTERNAL;

/** Bytes per element of the tensor types an encoder's initializers use. */
const ELEMENT_BYTES: Partial<Record<number, number>> = {
  [DataType.FLOAT]: 4,
  [DataType.UINT8]: 1,
  [DataType.INT8]: 1,
  [DataType.UINT16]: 2,
  [DataType.INT16]: 2,
  [DataType.INT32]: 4,
  [DataType.INT64]: 8,
  [DataType.BOOL]: 1,
  [DataType.FLOAT16]: 2,
  [DataType.DOUBLE]: 8,
  [DataType.UINT32]: 4,
  [DataType.UINT64]: 8,
  [DataType.BFLOAT16]: 2,
};

type Long = { toNumber(): number };
const toNumber = (value: number | Long | null | undefined) =>
  value === null || value === undefined ? 0 : typeof value === 'number' ? value : value.toNumber();
const dimsOf = (tensor: onnx.ITensorProto) => (tensor.dims ?? []).map(toNumber);
const count = (dims: number[]) => dims.reduce((a, b) => a * b, 1);
const isExternal = (tensor: onnx.ITensorProto) => tensor.dataLocation === EXTERNAL;

/** What `quantizeEncoder` did, for the command's report. */
export interface QuantizeReport {
  /** MatMuls turned into DynamicQuantizeLinear → MatMulInteger. */
  matmuls: number;
  /** External-data files read (each once). */
  externalFiles: number;
  /** Bytes of float weights read and of the graph written. */
  bytesIn: number;
  bytesOut: number;
}

/**
 * One external-data tensor's bytes, read from its file (location, offset, length as ONNX's
 * external_data entries give them; the path is relative to the graph's folder).
 */
async function readExternal(tensor: onnx.ITensorProto, folder: string): Promise<Uint8Array> {
  const entry = (key: string) => tensor.externalData?.find((e) => e.key === key)?.value ?? undefined;
  const location = entry('location');
  if (!location) throw new Error(`${tensor.name}: external data without a location.`);
  if (location.split(/[\\/]/).includes('..') || location.startsWith('/'))
    throw new Error(`${tensor.name}: external data location '${location}' leaves the model's folder.`);
  const path = join(folder, location);
  const offset = Number(entry('offset') ?? 0);
  const length = entry('length') !== undefined ? Number(entry('length')) : (await stat(path)).size - offset;
  const expected = count(dimsOf(tensor)) * (ELEMENT_BYTES[tensor.dataType ?? 0] ?? 0);
  if (expected && length !== expected)
    throw new Error(`${tensor.name}: ${location} holds ${length} bytes, its shape needs ${expected}.`);
  const bytes = new Uint8Array(length);
  const file = await open(path, 'r');
  try {
    const { bytesRead } = await file.read(bytes, 0, length, offset);
    if (bytesRead !== length)
      throw new Error(`${tensor.name}: ${location} ends after ${bytesRead} of ${length} bytes.`);
  } finally {
    await file.close();
  }
  return bytes;
}

/** A float tensor's values, from raw data, float_data or its external file. */
async function floats(tensor: onnx.ITensorProto, folder: string): Promise<Float32Array> {
  if (isExternal(tensor)) {
    const bytes = await readExternal(tensor, folder);
    return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  }
  if (tensor.rawData?.length) {
    const copy = new Uint8Array(tensor.rawData);
    return new Float32Array(copy.buffer, 0, copy.byteLength / 4);
  }
  return Float32Array.from(tensor.floatData ?? []);
}

/** A copy of the tensor with its bytes inside (external data read in), or the tensor itself when it already is. */
async function inline(tensor: onnx.ITensorProto, folder: string): Promise<onnx.ITensorProto> {
  if (!isExternal(tensor)) return tensor;
  return { ...tensor, dataLocation: null, externalData: [], rawData: await readExternal(tensor, folder) };
}

/**
 * onnxruntime's dynamic quantisation of one MatMul weight [K, N] (quantize_dynamic with
 * per_channel, weight_type QInt8): symmetric int8 per output column, scale = max |w| / 127,
 * zero point 0.
 */
export function quantizeColumns(weight: Float32Array, k: number, n: number) {
  const scales = new Float32Array(n);
  for (let i = 0; i < k * n; i++) scales[i % n] = Math.max(scales[i % n]!, Math.abs(weight[i]!) / 127);
  for (let j = 0; j < n; j++) if (scales[j] === 0) scales[j] = 1;
  const values = new Int8Array(k * n);
  for (let i = 0; i < k * n; i++) values[i] = Math.max(-127, Math.min(127, Math.round(weight[i]! / scales[i % n]!)));
  return { values, scales };
}

/** Protobuf varint bytes of a non-negative length. */
function varint(value: number): Uint8Array {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Uint8Array.from(out);
}

/** A length-delimited field's key and length (the value follows). */
const fieldHead = (field: number, length: number) => {
  const key = varint(field * 8 + 2);
  const size = varint(length);
  const out = new Uint8Array(key.length + size.length);
  out.set(key);
  out.set(size, key.length);
  return out;
};

/** An initializer in the output: its header (every field but raw_data) and where its raw bytes come from. */
interface Planned {
  header: Uint8Array;
  rawBytes: number;
  data: () => Promise<Uint8Array>;
}

/** The encoded size of a TensorProto written as header + raw_data (field 9). */
const tensorSize = (t: Planned) => t.header.length + (t.rawBytes ? fieldHead(9, t.rawBytes).length + t.rawBytes : 0);

/**
 * Writes `output`: the ONNX graph at `input` (weights inline or in external-data files beside it)
 * with every MatMul whose B is a 2-D float initializer dynamically quantised as onnxruntime's
 * quantize_dynamic writes it — DynamicQuantizeLinear on the activation (one per activation, shared
 * by the MatMuls that read it), MatMulInteger against int8 weights with per-column scales and zero
 * points, Cast, and Mul by the activation's scale × the column scales — and every other tensor
 * inline: one self-contained file. Weights are read one tensor at a time and the output is
 * streamed, so memory holds the graph's structure and the largest single weight, never the model.
 */
export async function quantizeEncoder(input: string, output: string): Promise<QuantizeReport> {
  const folder = dirname(input);
  const model = proto.ModelProto.decode(await readFile(input));
  const graph = model.graph;
  if (!graph) throw new Error(`${input} has no graph.`);
  const opset = toNumber(model.opsetImport?.find((o) => !o.domain)?.version);
  if (opset < 11) throw new Error(`${input} uses opset ${opset}; DynamicQuantizeLinear needs opset 11 or later.`);

  const initializers = new Map((graph.initializer ?? []).map((t) => [t.name!, t]));
  // A weight is quantised when every node that reads it is a MatMul reading it as B.
  const readers = new Map<string, { matmul: number; other: number }>();
  const note = (name: string, matmul: boolean) => {
    const seen = readers.get(name) ?? { matmul: 0, other: 0 };
    if (matmul) seen.matmul++;
    else seen.other++;
    readers.set(name, seen);
  };
  for (const node of graph.node ?? [])
    (node.input ?? []).forEach((name, i) => note(name, node.opType === 'MatMul' && i === 1 && !node.domain));
  for (const out of graph.output ?? []) note(out.name!, false);
  const quantised = new Set(
    [...initializers.values()]
      .filter((t) => {
        const seen = readers.get(t.name!);
        return t.dataType === DataType.FLOAT && dimsOf(t).length === 2 && seen?.matmul && !seen.other;
      })
      .map((t) => t.name!),
  );

  const nodes: onnx.INodeProto[] = [];
  const activations = new Map<string, [string, string, string]>();
  let matmuls = 0;
  for (const node of graph.node ?? []) {
    const [a, b] = node.input ?? [];
    if (node.opType !== 'MatMul' || node.domain || !b || !quantised.has(b)) {
      nodes.push(node);
      continue;
    }
    matmuls++;
    const name = node.name || `${b}_MatMul`;
    let quant = activations.get(a!);
    if (!quant) {
      quant = [`${a}_quantized`, `${a}_scale`, `${a}_zero_point`];
      activations.set(a!, quant);
      nodes.push({ opType: 'DynamicQuantizeLinear', name: `${a}_QuantizeLinear`, input: [a!], output: quant });
    }
    const [xq, xScale, xZero] = quant;
    const product = `${name}_output_quantized`;
    const scale = `${name}_scales_mul`;
    const cast = `${product}_cast_output`;
    nodes.push(
      {
        opType: 'MatMulInteger',
        name: `${name}_quant`,
        input: [xq, `${b}_quantized`, xZero, `${b}_zero_point`],
        output: [product],
      },
      { opType: 'Mul', name: `${name}_scales_mul`, input: [xScale, `${b}_scale`], output: [scale] },
      { opType: 'Cast', name: `${product}_cast`, input: [product], output: [cast], attribute: [castToFloat] },
      { opType: 'Mul', name: `${name}_output_scale_mul`, input: [cast, scale], output: node.output ?? [] },
    );
  }
  // Constant nodes (and any other node attribute) may keep their tensors in external files too.
  for (const node of nodes)
    for (const attribute of node.attribute ?? []) {
      if (attribute.t) attribute.t = await inline(attribute.t, folder);
      if (attribute.tensors?.length)
        attribute.tensors = await Promise.all(attribute.tensors.map((t) => inline(t, folder)));
    }

  let bytesIn = 0;
  const externalFiles = new Set<string>();
  const planned: Planned[] = [];
  const header = (tensor: onnx.ITensorProto) => proto.TensorProto.encode(tensor).finish();
  for (const tensor of graph.initializer ?? []) {
    const base = { name: tensor.name, dims: tensor.dims, docString: tensor.docString };
    if (isExternal(tensor)) {
      const location = tensor.externalData?.find((e) => e.key === 'location')?.value;
      if (location) externalFiles.add(location);
    }
    if (quantised.has(tensor.name!)) {
      const [k, n] = dimsOf(tensor) as [number, number];
      // One weight's quantisation, shared by its three output tensors and computed when the first is written.
      let once: Promise<ReturnType<typeof quantizeColumns>> | undefined;
      const weights = () =>
        (once ??= floats(tensor, folder).then((values) => {
          bytesIn += values.byteLength;
          return quantizeColumns(values, k, n);
        }));
      planned.push(
        {
          header: header({ ...base, name: `${tensor.name}_quantized`, dataType: DataType.INT8 }),
          rawBytes: k * n,
          data: async () => {
            const { values } = await weights();
            return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
          },
        },
        {
          header: header({ name: `${tensor.name}_scale`, dims: [n], dataType: DataType.FLOAT }),
          rawBytes: n * 4,
          data: async () => {
            const { scales } = await weights();
            once = undefined;
            return new Uint8Array(scales.buffer, scales.byteOffset, scales.byteLength);
          },
        },
        {
          header: header({ name: `${tensor.name}_zero_point`, dims: [n], dataType: DataType.INT8 }),
          rawBytes: n,
          data: async () => new Uint8Array(n),
        },
      );
      continue;
    }
    if (!isExternal(tensor)) {
      planned.push({ header: header(tensor), rawBytes: 0, data: async () => new Uint8Array() });
      continue;
    }
    const elementBytes = ELEMENT_BYTES[tensor.dataType ?? 0];
    if (!elementBytes) throw new Error(`${tensor.name}: external data of type ${tensor.dataType} is not supported.`);
    planned.push({
      header: header({ ...base, dataType: tensor.dataType }),
      rawBytes: count(dimsOf(tensor)) * elementBytes,
      data: async () => {
        const bytes = await readExternal(tensor, folder);
        bytesIn += bytes.byteLength;
        return bytes;
      },
    });
  }

  // Everything of the graph but its initializers, encoded now; the initializers are streamed after it.
  const graphRest = proto.GraphProto.encode({ ...graph, node: nodes, initializer: [] }).finish();
  const graphBytes = planned.reduce((sum, t) => {
    const size = tensorSize(t);
    return sum + fieldHead(5, size).length + size;
  }, graphRest.length);
  const modelRest = proto.ModelProto.encode({ ...model, graph: null }).finish();

  const file = await open(output, 'w');
  let bytesOut = 0;
  const write = async (bytes: Uint8Array) => {
    await file.write(bytes);
    bytesOut += bytes.length;
  };
  try {
    await write(modelRest);
    await write(fieldHead(7, graphBytes));
    await write(graphRest);
    for (const tensor of planned) {
      await write(fieldHead(5, tensorSize(tensor)));
      await write(tensor.header);
      if (!tensor.rawBytes) continue;
      const data = await tensor.data();
      if (data.length !== tensor.rawBytes)
        throw new Error(`a tensor gave ${data.length} bytes, not ${tensor.rawBytes}`);
      await write(fieldHead(9, tensor.rawBytes));
      await write(data);
    }
  } finally {
    await file.close();
  }
  return { matmuls, externalFiles: externalFiles.size, bytesIn, bytesOut };
}

const castToFloat: onnx.IAttributeProto = {
  name: 'to',
  type: proto.AttributeProto.AttributeType.INT,
  i: DataType.FLOAT,
};
