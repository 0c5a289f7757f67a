import type { MemoryEngine, MemoryWorker } from '../../protocol/memory';
import { originOf } from '../../protocol/memory';
import { modelsOf } from '../../catalogue/families';
import { type EngineFactory, type EngineRegistry, defineEngine } from './_registry';
import { embedder, embeddingUsage } from './_embed';
import { WorkerHost } from '../hosts/worker-host';
import { DEFAULT_DATABASES, type VaaniOptions } from '../../protocol/options';
import { askPersist } from '../../common/weights';

function memoryEngine(
  modelId: string,
  options: VaaniOptions,
  registry: EngineRegistry,
): MemoryEngine & { dispose(): void } {
  const db = options.memory?.database ?? DEFAULT_DATABASES.memory;
  const host = new WorkerHost<MemoryWorker>({
    create: () =>
      new Worker(new URL('../../worker/memory/memory.worker.ts', import.meta.url), {
        type: 'module',
        name: 'vaani-memory',
      }),
    name: 'memory',
    maxQueue: options.maxQueue,
  });
  const run = host.run.bind(host);
  const embed = embedder(registry, modelId);
  return {
    store: async (items, signal) => {
      // Memories should survive storage pressure: the page's one persist() request (the plan reports it).
      void askPersist();
      const embedded = await embed(
        items.map((item) => item.text),
        'passage',
        signal,
      );
      const origin = originOf(embedded.model);
      const rows = items.map((item, i) => ({ ...item, vector: embedded.vectors[i]! }));
      const result = await run((api) => api.store(db, rows, origin), signal);
      return { result, usage: embeddingUsage(embedded.tokens) };
    },
    search: async (query, signal) => {
      // Keyword search needs no model: it works before the embedding model has ever been downloaded.
      const embedded = query.mode === 'keyword' ? undefined : await embed([query.text], 'query', signal);
      const origin = embedded && originOf(embedded.model);
      const search = { ...query, vector: embedded?.vectors[0] };
      const result = await run((api) => api.search(db, search, origin), signal);
      return { result, usage: embeddingUsage(embedded?.tokens ?? 0) };
    },
    get: (id, signal) => run((api) => api.get(db, id), signal),
    list: (params, signal) => run((api) => api.list(db, params), signal),
    update: async (id, change, signal) => {
      const embedded = change.text === undefined ? undefined : await embed([change.text], 'passage', signal);
      const origin = embedded && originOf(embedded.model);
      const patch = { ...change, vector: embedded?.vectors[0] };
      const result = await run((api) => api.update(db, id, patch, origin), signal);
      return { result, usage: embeddingUsage(embedded?.tokens ?? 0) };
    },
    remove: (id, signal) => run((api) => api.remove(db, id), signal),
    removeWhere: (scope, filters, signal) => run((api) => api.removeWhere(db, scope, filters), signal),
    dispose: () => host.dispose(),
  };
}

/** The memory store (IndexedDB + a search worker); its vectors come from the embeddings engine of its model. */
export function memoryEngines(options: VaaniOptions, registry: EngineRegistry): EngineFactory<'memory'>[] {
  return [
    {
      kind: 'memory',
      models: modelsOf('memory'),
      info: () => ({ backends: ['wasm'] }),
      create: (modelId) => memoryEngine(modelId, options, registry),
    },
  ];
}

export default defineEngine({ kind: 'memory', factories: ({ options, registry }) => memoryEngines(options, registry) });
