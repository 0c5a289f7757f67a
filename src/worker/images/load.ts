import { createSession, type Ort } from '../../common/backends/ort';
import { externalDataOf, loadExternalData } from '../../common/layouts/onnx';
import type { RuntimeBackend } from '../../common/backends/plan';
import type { FileLoader, LoadOptions } from '../../protocol/weights';
import { DiffusionPipeline } from './pipeline';
import { upscalerBytesPerPixel } from './upscale';
import { readSchedulerConfig } from './schedule';
import { Stages, type SessionPolicy, type Stage } from './stages';
import { clipTokenizerJson, PromptTokenizer } from './tokenizer';

const utf8 = new TextDecoder();
type Json = Record<string, unknown>;

/**
 * A stage's graph and its external data (`model.onnx_data` beside it, as exports whose UNet passes
 * protobuf's 2 GB write them), ready for a session.
 */
export async function stageGraph(loader: FileLoader, stage: string, options: LoadOptions = {}) {
  const files = {
    dtype: '',
    graph: `${stage}/model.onnx`,
    externalData: await externalDataOf(loader, `${stage}/model.onnx`, options),
  };
  const [graph, externalData] = await Promise.all([
    loader.load(files.graph, options),
    loadExternalData(loader, files, options),
  ]);
  return { graph, externalData };
}

/**
 * Loads a diffusers-layout ONNX export (text_encoder, unet, vae_decoder, scheduler, tokenizer —
 * tokenizer.json, or CLIP's vocab.json + merges.txt; vae_encoder and upscaler when present). `stagewise` sessions are made from the weight store's
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
  const text = async (file: string) => utf8.decode(await loader.load(file, options));
  const [scheduler, tokenizer, tokenizerConfig, vae] = await Promise.all([
    json('scheduler/scheduler_config.json'),
    loader
      .has('tokenizer/tokenizer.json', options)
      .then(async (has) =>
        has
          ? json('tokenizer/tokenizer.json')
          : clipTokenizerJson(await json('tokenizer/vocab.json'), await text('tokenizer/merges.txt')),
      ),
    json('tokenizer/tokenizer_config.json'),
    loader
      .has('vae_decoder/config.json', options)
      .then((has): Promise<Json> | Json => (has ? json('vae_decoder/config.json') : {})),
  ]);
  const optional: Stage[] = [];
  for (const stage of ['vae_encoder', 'upscaler'] as const)
    if (await loader.has(`${stage}/model.onnx`, options)) optional.push(stage);
  const session = async (stage: Stage) =>
    createSession(ort, { backend, ...(await stageGraph(loader, stage, options)) });
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
