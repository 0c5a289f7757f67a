import pLimit from 'p-limit';
import type { FileLoader, LoadOptions, FileSpec } from '../../protocol/weights';
import { DTYPE_SUFFIX } from './onnx';
import { externalDataFiles } from './onnx-external-data';
import { INDIC_CODES } from '../../catalogue/languages/indic-conformer';

/**
 * Where an IndicConformer source keeps its files: AI4Bharat's repository under assets/, the int8
 * copies at the root. `encoder` is encoder{suffix}.onnx for the dtype, or plain encoder.onnx when
 * the source fixes its dtype (an int8 copy names its encoder encoder.onnx).
 */
export interface IndicLayout {
  prefix: string;
  encoder: string;
  rnnt: boolean;
}

const PREFIXES = ['assets/', ''];

export async function findIndicLayout(
  loader: FileLoader,
  dtype: string,
  fixed: boolean,
  options: LoadOptions = {},
): Promise<IndicLayout | undefined> {
  const suffix = DTYPE_SUFFIX[dtype];
  if (suffix === undefined)
    throw new Error(`Unknown dtype '${dtype}': use one of ${Object.keys(DTYPE_SUFFIX).join(', ')}.`);
  const names = [...new Set([`encoder${suffix}.onnx`, ...(fixed ? ['encoder.onnx'] : [])])];
  for (const prefix of PREFIXES) {
    for (const name of names) {
      if (!(await loader.has(`${prefix}${name}`, options))) continue;
      return { prefix, encoder: `${prefix}${name}`, rnnt: await loader.has(`${prefix}rnnt_decoder.onnx`, options) };
    }
  }
  return undefined;
}

/** The encoder graph and its external-data files, as onnxruntime-web's `externalData` wants them. */
export async function loadEncoder(loader: FileLoader, layout: IndicLayout, options: LoadOptions = {}) {
  const graph = await loader.load(layout.encoder, options);
  const limit = pLimit(4);
  const externalData = await Promise.all(
    externalDataFiles(graph).map((path) =>
      limit(async () => ({ path, data: await loader.load(`${layout.prefix}${path}`, options) })),
    ),
  );
  return { graph, externalData };
}

/** The RNN-T graphs shared by all languages (each language's joint_post_net_<code>.onnx loads on first use). */
export const RNNT_GRAPHS = ['rnnt_decoder', 'joint_enc', 'joint_pred', 'joint_pre_net'] as const;

/** Every file loadIndicConformer reads for `layout` (what `ai.models.load` fetches); CTC decoding only. */
export async function indicFiles(loader: FileLoader, layout: IndicLayout): Promise<FileSpec[]> {
  const graph = await loader.load(layout.encoder);
  const p = layout.prefix;
  return [
    { name: 'config.json', optional: true },
    { name: `${p}vocab.json` },
    { name: `${p}language_masks.json` },
    { name: layout.encoder },
    ...externalDataFiles(graph).map((name) => ({ name: `${p}${name}` })),
    { name: `${p}ctc_decoder.onnx` },
    ...(layout.rnnt
      ? [...RNNT_GRAPHS, ...INDIC_CODES.map((code) => `joint_post_net_${code}`)].map((name) => ({
          name: `${p}${name}.onnx`,
          optional: true,
        }))
      : []),
  ];
}
