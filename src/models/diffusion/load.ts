import { createSession, type Ort } from '../../backends/ort';
import type { RuntimeBackend } from '../../backends/plan';
import type { FileLoader, LoadOptions } from '../../store';
import { DiffusionPipeline } from './pipeline';
import { readSchedulerConfig } from './schedule';
import { PromptTokenizer } from './tokenizer';

const utf8 = new TextDecoder();
type Json = Record<string, unknown>;

/** Loads a diffusers-layout ONNX export (text_encoder, unet, vae_decoder, scheduler, tokenizer). */
export async function loadDiffusion(
  ort: Ort,
  loader: FileLoader,
  backend: RuntimeBackend,
  options: LoadOptions = {},
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
  const session = async (stage: string) =>
    createSession(ort, { backend, graph: await loader.load(`${stage}/model.onnx`, options), externalData: [] });
  const textEncoder = await session('text_encoder');
  const unet = await session('unet');
  const vaeDecoder = await session('vae_decoder');
  const optional = async (stage: string) =>
    (await loader.has(`${stage}/model.onnx`, options)) ? session(stage) : undefined;
  const vaeEncoder = await optional('vae_encoder');
  const upscaler = await optional('upscaler');
  return new DiffusionPipeline(
    ort,
    { textEncoder, unet, vaeDecoder },
    new PromptTokenizer(tokenizer, tokenizerConfig),
    readSchedulerConfig(scheduler),
    Number(vae.scaling_factor ?? 0.18215),
    vaeEncoder,
    upscaler,
  );
}
