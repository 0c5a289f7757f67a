import * as Comlink from 'comlink';
import { possibleBackends } from '../../common/backends/plan';
import { fp16Refusal } from '../../common/backends/fp16';
import { probedWebGpu, probeWebGpu } from '../../common/backends/webgpu';
import { EngineError } from '../../protocol/errors';
import { modelSource } from '../../catalogue/sources';
import { modelsOf } from '../../catalogue/families';
import type { ImagesEngine, ImagesWorker } from '../../protocol/images';
import { type EngineFactory, defineEngine } from './_registry';
import type { EngineHosts } from '../hosts/engine-hosts';
import type { VaaniOptions } from '../../protocol/options';
import { modelFiles, modelJob } from './_model-files';
import { diffusionFiles } from '../../common/layouts/diffusion';

function imagesEngine(modelId: string, options: VaaniOptions, seen: { backend?: string }, hosts: EngineHosts) {
  const source = modelSource(modelId, options.models);
  const job = {
    ...modelJob(modelId, options, source),
    sessions: source.image?.sessions,
    upscaleMemory: source.image?.upscaleMemory,
  };
  const host = hosts.host<ImagesWorker>(
    {
      create: () =>
        new Worker(new URL('../../worker/images/images.worker.ts', import.meta.url), {
          type: 'module',
          name: `vaani-images-${modelId}`,
        }),
      name: `images (${modelId})`,
      maxQueue: options.maxQueue,
    },
    `images:${JSON.stringify(job)}`,
  );
  // An fp16 export (the default's) on a browser without WebGPU shader-f16 is refused before any fetch.
  const runnable = async () => {
    const refusal = fp16Refusal(
      source.dtype,
      options.backend ?? 'auto',
      options.backend === 'wasm' ? undefined : await probeWebGpu(),
    );
    if (refusal)
      throw new EngineError(
        'unavailable',
        `${modelId} cannot run in this browser: ${refusal} Name a smaller fp32 or 8-bit export (createVaani({ models: { '${modelId}': { baseURL } } })) or a remote (createVaani({ remote: { baseURL, apiKey } })).`,
        'model_needs_webgpu',
        'model',
      );
  };
  const engine: ImagesEngine & { dispose(): void } = {
    async generate(params, signal, onProgress) {
      await runnable();
      const events = onProgress && Comlink.proxy({ progress: onProgress });
      const result = await host.run((api) => api.generate({ ...job, params }, events), signal);
      seen.backend = result.backend;
      return result;
    },
    async edit(params, signal, onProgress) {
      await runnable();
      const events = onProgress && Comlink.proxy({ progress: onProgress });
      const result = await host.run((api) => api.edit({ ...job, params }, events), signal);
      seen.backend = result.backend;
      return result;
    },
    dispose: () => host.dispose(),
  };
  return engine;
}

/** The backends an images model can use here: none but WebGPU with shader-f16 for an fp16 export. */
function imageBackends(modelId: string, options: VaaniOptions): string[] {
  const backends = possibleBackends(options.backend);
  if (modelSource(modelId, options.models).dtype !== 'fp16') return backends;
  const gpu = probedWebGpu();
  return gpu === 'unknown' || gpu?.f16 ? backends.filter((b) => b === 'webgpu') : [];
}

/**
 * image-v1 on a diffusers-layout ONNX export: the catalogue's default (fp16, WebGPU) unless the
 * page names another in `models['image-v1']`.
 */
export function imagesEngines(options: VaaniOptions, hosts: EngineHosts): EngineFactory<'images'>[] {
  return modelsOf('images').map((modelId) => {
    const seen: { backend?: string } = {};
    return {
      kind: 'images',
      models: [modelId],
      info: () => ({ backends: seen.backend ? [seen.backend] : imageBackends(modelId, options) }),
      create: () => imagesEngine(modelId, options, seen, hosts),
      files: () => modelFiles(modelId, options, diffusionFiles),
    };
  });
}

export default defineEngine({ kind: 'images', factories: ({ options, hosts }) => imagesEngines(options, hosts) });
