import { createSession, type Ort } from '../../common/backends/ort';
import type { RuntimeBackend } from '../../common/backends/plan';
import type { FileLoader, LoadOptions } from '../../protocol/weights';
import { DiffusionPipeline } from './pipeline';
import { upscalerBytesPerPixel } from './upscale';
import { readSchedulerConfig } from './schedule';
import { Stages, type SessionPolicy, type Stage } from './stages';
import { PromptTokenizer } from './tokenizer';

const utf8 = new TextDecoder();
type Json = Record<string, unknown>;

/**
 * Loads a diffusers-layout ONNX export (text_encoder, unet, vae_decoder, scheduler, tokenizer;
 * vae_encoder and upscaler when present). `stagewise` sessions are made from the weight store's
 * copy each time a stage runs and released after it, so no graph is held between requests.
 */
export async function loadDiffusion(
  ort: Ort,
  loader: FileLoader,
  backend: RuntimeBackend,
  options: LoadOptions = {},
  policy: SessionPolicy = 'resident',
  /** Bytes the upscaler may take in one pass (default UPSCALE_MEMORY). */
  upscaleMemory?: number,
): Promise<DiffusionPipeline> {
  const json = async (file: string) => JSON.parse(utf8.decode(await loader.load(file, options))) as Json;
  const [scheduler, tokenizer, tokenizerConfig, vae] = await Promise.all([
    json('scheduler/scheduler_config.json'),
    json('tokenizer/tokenizer.json'),
    json('tokenizer/tokenizer_config.json'),
    loader
      .has('vae_decoder/config.json', options)
      .then((has): Promise<Json> | Json => (has ? json('vae_decoder/config.json') : {})),
  ]);
  const optional: Stage[] = [];
  for (const stage of ['vae_encoder', 'upscaler'] as const)
    if (await loader.has(`${stage}/model.onnx`, options)) optional.push(stage);
  const session = async (stage: Stage) =>
    createSession(ort, {
      backend,
      graph: await loader.load(`${stage}/model.onnx`, options),
      externalData: [],
    });
  const upscaler =
    optional.includes('upscaler') && (await loader.has('upscaler/config.json', options))
      ? await json('upscaler/config.json')
      : {};
  const stages = await Stages.open(session, ['text_encoder', 'unet', 'vae_decoder', ...optional], policy);
  return new DiffusionPipeline(
    ort,
    stages,
    new PromptTokenizer(tokenizer, tokenizerConfig),
    readSchedulerConfig(scheduler),
    Number(vae.scaling_factor ?? 0.18215),
    { memory: upscaleMemory, perPixel: upscalerBytesPerPixel(upscaler) },
  );
}
