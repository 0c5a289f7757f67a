import type { FileLoader, LoadOptions, FileSpec } from '../../protocol/weights';
import { DTYPE_SUFFIX } from './onnx';

/** The two graphs of a Whisper export in the onnx-community layout. */
export interface WhisperGraphs {
  encoder: string;
  decoder: string;
}

/** `onnx/encoder_model{suffix}.onnx` and `onnx/decoder_model_merged{suffix}.onnx` when the source has both. */
export async function findWhisperGraphs(
  loader: FileLoader,
  dtype: string,
  options: LoadOptions = {},
): Promise<WhisperGraphs | undefined> {
  const suffix = DTYPE_SUFFIX[dtype];
  if (suffix === undefined)
    throw new Error(`Unknown dtype '${dtype}': use one of ${Object.keys(DTYPE_SUFFIX).join(', ')}.`);
  const encoder = `onnx/encoder_model${suffix}.onnx`;
  const decoder = `onnx/decoder_model_merged${suffix}.onnx`;
  const [hasEncoder, hasDecoder] = await Promise.all([loader.has(encoder, options), loader.has(decoder, options)]);
  return hasEncoder && hasDecoder ? { encoder, decoder } : undefined;
}

/** Every file `loadWhisper` reads for the first of `dtypes` the source has (what `ai.models.load` fetches). */
export async function whisperFiles(loader: FileLoader, dtypes: readonly string[]): Promise<FileSpec[]> {
  for (const dtype of dtypes) {
    const graphs = await findWhisperGraphs(loader, dtype);
    if (!graphs) continue;
    return [
      { name: 'config.json' },
      { name: 'tokenizer.json' },
      { name: 'tokenizer_config.json' },
      { name: 'preprocessor_config.json' },
      { name: 'generation_config.json', optional: true },
      { name: graphs.encoder },
      { name: graphs.decoder },
    ];
  }
  throw new Error(
    `The model source has no onnx/encoder_model{suffix}.onnx + onnx/decoder_model_merged{suffix}.onnx for ${dtypes.join(' or ')}.`,
  );
}
