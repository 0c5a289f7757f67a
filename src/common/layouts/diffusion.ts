import type { FileLoader, FileSpec } from '../../protocol/weights';
import { externalDataOf } from './onnx';

const STAGES = ['text_encoder', 'unet', 'vae_decoder'] as const;
const OPTIONAL_STAGES = ['vae_encoder', 'upscaler'] as const;

/**
 * Every file `loadDiffusion` reads from a diffusers-layout ONNX export (what `ai.models.load` and
 * `vaani pull` fetch): each stage's model.onnx and its external data, the scheduler, the tokenizer
 * (tokenizer.json, or CLIP's vocab.json + merges.txt), and the optional stages it has.
 */
export async function diffusionFiles(loader: FileLoader): Promise<FileSpec[]> {
  const graph = async (stage: string, optional: boolean): Promise<FileSpec[]> => {
    const file = `${stage}/model.onnx`;
    if (optional && !(await loader.has(file))) return [];
    const data = await externalDataOf(loader, file, {});
    return [{ name: file }, ...data.map((name) => ({ name })), { name: `${stage}/config.json`, optional: true }];
  };
  const tokenizer = (await loader.has('tokenizer/tokenizer.json'))
    ? [{ name: 'tokenizer/tokenizer.json' }]
    : [{ name: 'tokenizer/vocab.json' }, { name: 'tokenizer/merges.txt' }];
  const stages = await Promise.all([
    ...STAGES.map((stage) => graph(stage, false)),
    ...OPTIONAL_STAGES.map((stage) => graph(stage, true)),
  ]);
  return [
    { name: 'model_index.json', optional: true },
    { name: 'scheduler/scheduler_config.json' },
    ...tokenizer,
    { name: 'tokenizer/tokenizer_config.json' },
    ...stages.flat(),
  ];
}
