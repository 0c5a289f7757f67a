import type { FileLoader, FileSpec } from '../../protocol/weights';
import { findGraphFiles } from './onnx';

/** Every file `loadEncoder` reads for the first of `dtypes` the source has (what `ai.models.load` fetches). */
export async function encoderFiles(loader: FileLoader, dtypes: readonly string[]): Promise<FileSpec[]> {
  const found = await findGraphFiles(loader, dtypes, {}, 'encoder');
  const optional = (name: string) => ({ name, optional: true });
  return [
    { name: 'tokenizer.json' },
    optional('config.json'),
    optional('tokenizer_config.json'),
    optional('modules.json'),
    optional('1_Pooling/config.json'),
    optional('sentence_bert_config.json'),
    optional('config_sentence_transformers.json'),
    { name: found.graph },
    ...found.externalData.map((name) => ({ name })),
  ];
}
