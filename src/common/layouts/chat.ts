import type { FileLoader, FileSpec } from '../../protocol/weights';
import { findGraphFiles } from './onnx';

/** Files read only when present: a 404 for them is not an error. */
const OPTIONAL = ['config.json', 'generation_config.json', 'genai_config.json', 'chat_template.jinja'];

/** Every file `loadLlm` reads for the first of `dtypes` the source has (what `ai.models.load` fetches). */
export async function llmFiles(loader: FileLoader, dtypes: readonly string[]): Promise<FileSpec[]> {
  const model = await findGraphFiles(loader, dtypes);
  return [
    { name: 'tokenizer.json' },
    { name: 'tokenizer_config.json' },
    ...OPTIONAL.map((name) => ({ name, optional: true })),
    { name: model.graph },
    ...model.externalData.map((name) => ({ name })),
  ];
}
