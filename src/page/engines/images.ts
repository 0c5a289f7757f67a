import * as Comlink from 'comlink';
import { possibleBackends } from '../../common/backends/plan';
import { modelSource } from '../../catalogue/sources';
import { modelsOf } from '../../catalogue/families';
import type { ImagesEngine, ImagesWorker } from '../../protocol/images';
import { type EngineFactory, defineEngine } from './_registry';
import type { EngineHosts } from '../hosts/engine-hosts';
import type { VaaniOptions } from '../../protocol/options';
import { modelJob } from './_model-files';

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
  const engine: ImagesEngine & { dispose(): void } = {
    async generate(params, signal, onProgress) {
      const events = onProgress && Comlink.proxy({ progress: onProgress });
      const result = await host.run((api) => api.generate({ ...job, params }, events), signal);
      seen.backend = result.backend;
      return result;
    },
    async edit(params, signal, onProgress) {
      const events = onProgress && Comlink.proxy({ progress: onProgress });
      const result = await host.run((api) => api.edit({ ...job, params }, events), signal);
      seen.backend = result.backend;
      return result;
    },
    dispose: () => host.dispose(),
  };
  return engine;
}

/**
 * image-v1 on a diffusers-layout ONNX export — only when the page names one in
 * `models['image-v1']`: no default weights are fetched (see the README on licences), so without it
 * the route forwards to the remote or answers 503.
 */
export function imagesEngines(options: VaaniOptions, hosts: EngineHosts): EngineFactory<'images'>[] {
  return modelsOf('images')
    .filter((modelId) => options.models?.[modelId])
    .map((modelId) => {
      const seen: { backend?: string } = {};
      return {
        kind: 'images',
        models: [modelId],
        info: () => ({ backends: seen.backend ? [seen.backend] : possibleBackends(options.backend) }),
        create: () => imagesEngine(modelId, options, seen, hosts),
      };
    });
}

export default defineEngine({ kind: 'images', factories: ({ options, hosts }) => imagesEngines(options, hosts) });
