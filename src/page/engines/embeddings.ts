import { possibleBackends } from '../../common/backends/plan';
import { modelSource } from '../../catalogue/sources';
import { modelsOf } from '../../catalogue/families';
import { encoderFiles } from '../../common/layouts/embeddings';
import type { EmbeddingModel, EmbeddingsEngine, EmbeddingsWorker } from '../../protocol/embeddings';
import { type EngineFactory, defineEngine } from './_registry';
import type { EngineHosts } from '../hosts/engine-hosts';
import type { VaaniOptions } from '../../protocol/options';
import { modelFiles, modelJob } from './_model-files';

/** Where an embedding model's files are and how to run it (the embeddings and data workers load from it). */
export function encoderJob(modelId: string, options: VaaniOptions) {
  const source = modelSource(modelId, options.models);
  return { ...modelJob(modelId, options, source), settings: source.embedding };
}

function embeddingsEngine(modelId: string, options: VaaniOptions, seen: { backend?: string }, hosts: EngineHosts) {
  const source = modelSource(modelId, options.models);
  const job = encoderJob(modelId, options);
  const host = hosts.host<EmbeddingsWorker>(
    {
      create: () =>
        new Worker(new URL('../../worker/embeddings/embeddings.worker.ts', import.meta.url), {
          type: 'module',
          name: `vaani-embeddings-${modelId}`,
        }),
      name: `embeddings (${modelId})`,
      maxQueue: options.maxQueue,
    },
    `embeddings:${JSON.stringify(job)}`,
  );
  const engine: EmbeddingsEngine & { dispose(): void } = {
    async embed(params, signal) {
      const result = await host.run((api) => api.embed({ ...job, params }), signal);
      seen.backend = result.backend;
      const model: EmbeddingModel = {
        id: modelId,
        source: source.repo ?? job.base,
        revision: source.revision ?? 'main',
        dimensions: result.dimensions,
        prefixes: result.prefixes,
        truncatable: source.embedding?.truncatable ?? false,
      };
      return { vectors: result.vectors, tokens: result.tokens, truncated: result.truncated, model };
    },
    dispose: () => host.dispose(),
  };
  return engine;
}

/** embed-v1 on a sentence-transformers encoder export (multilingual-e5-small by default). */
export function embeddingsEngines(options: VaaniOptions, hosts: EngineHosts): EngineFactory<'embeddings'>[] {
  return modelsOf('embeddings').map((modelId) => {
    const seen: { backend?: string } = {};
    return {
      kind: 'embeddings',
      models: [modelId],
      info: () => ({ backends: seen.backend ? [seen.backend] : possibleBackends(options.backend) }),
      create: () => embeddingsEngine(modelId, options, seen, hosts),
      files: () => modelFiles(modelId, options, encoderFiles),
    };
  });
}

export default defineEngine({
  kind: 'embeddings',
  factories: ({ options, hosts }) => embeddingsEngines(options, hosts),
});
