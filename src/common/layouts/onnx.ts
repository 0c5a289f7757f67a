import type { FileLoader, LoadOptions } from '../../protocol/weights';

/** onnx-community file suffix per dtype. */
export const DTYPE_SUFFIX: Readonly<Record<string, string>> = {
  fp32: '',
  fp16: '_fp16',
  q8: '_quantized',
  int8: '_int8',
  uint8: '_uint8',
  q4: '_q4',
  q4f16: '_q4f16',
  bnb4: '_bnb4',
};

/** The graph file and the external-data files it names (path as written inside the graph). */
export interface GraphFiles {
  dtype: string;
  graph: string;
  externalData: string[];
}

const folderOf = (path: string) => path.slice(0, path.lastIndexOf('/') + 1);
const MAX_CHUNKS = 100;

/** `model.onnx_data`, `model.onnx_data_1` …, or `model.onnx.data`, whichever the source has. */
export async function externalDataOf(loader: FileLoader, graph: string, options: LoadOptions): Promise<string[]> {
  if (await loader.has(`${graph}_data`, options)) {
    const chunks = [`${graph}_data`];
    while (chunks.length < MAX_CHUNKS && (await loader.has(`${graph}_data_${chunks.length}`, options))) {
      chunks.push(`${graph}_data_${chunks.length}`);
    }
    return chunks;
  }
  return (await loader.has(`${graph}.data`, options)) ? [`${graph}.data`] : [];
}

/**
 * Finds the first dtype (in order of preference) the source has, under `onnx/` as onnx-community
 * lays it out or at the top level as other exporters do. `kind` names the graph in the error.
 */
export async function findGraphFiles(
  loader: FileLoader,
  dtypes: readonly string[],
  options: LoadOptions = {},
  kind: 'decoder' | 'encoder' = 'decoder',
): Promise<GraphFiles> {
  for (const dtype of dtypes) {
    const suffix = DTYPE_SUFFIX[dtype];
    if (suffix === undefined)
      throw new Error(`Unknown dtype '${dtype}': use one of ${Object.keys(DTYPE_SUFFIX).join(', ')}.`);
    for (const folder of ['onnx/', '']) {
      const graph = `${folder}model${suffix}.onnx`;
      if (await loader.has(graph, options))
        return { dtype, graph, externalData: await externalDataOf(loader, graph, options) };
    }
  }
  throw new Error(
    `The model source has no ONNX ${kind} for dtype ${dtypes.join(' or ')} (looked for onnx/model{suffix}.onnx and model{suffix}.onnx).`,
  );
}

/** External data as onnxruntime-web takes it: the name the graph refers to, and the bytes. */
export async function loadExternalData(loader: FileLoader, files: GraphFiles, options: LoadOptions = {}) {
  const folder = folderOf(files.graph);
  return Promise.all(
    files.externalData.map(async (file) => ({
      path: file.slice(folder.length),
      data: await loader.load(file, options),
    })),
  );
}
