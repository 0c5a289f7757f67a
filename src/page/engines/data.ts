import type { DataEngine, DataWorker } from '../../protocol/data';
import { modelsOf } from '../../catalogue/families';
import { originOf } from '../../protocol/memory';
import { type EngineFactory, type EngineRegistry, defineEngine } from './_registry';
import { WorkerHost } from '../hosts/worker-host';
import { DEFAULT_DATABASES, type VaaniOptions } from '../../protocol/options';
import { encoderJob } from './embeddings';
import { embedder } from './_embed';
import { ingestCalls, ingestQueue } from './_ingest';

function dataEngine(
  modelId: string,
  options: VaaniOptions,
  registry: EngineRegistry,
): DataEngine & { dispose(): void } {
  const db = options.data?.database ?? DEFAULT_DATABASES.data;
  const host = new WorkerHost<DataWorker>({
    create: () =>
      new Worker(new URL('../../worker/data/data.worker.ts', import.meta.url), { type: 'module', name: 'vaani-data' }),
    name: 'data',
    maxQueue: options.maxQueue,
  });
  const background = new AbortController();
  const call: typeof host.run = (work) => host.run(work, background.signal);
  const embedText = embedder(registry, modelId);
  const embed = (texts: string[], purpose: 'query' | 'passage') => embedText(texts, purpose, background.signal);

  /** Store files through parse → embed → write, overlapped across files (./_ingest.ts). */
  const enqueue = ingestQueue({
    prepare: (storeId, fileId) => call((api) => api.prepare(db, storeId, fileId, encoderJob(modelId, options))),
    embed: async ({ chunks }) => {
      const vectors: Float32Array[] = [];
      let model;
      for (const [start, end] of ingestCalls(chunks)) {
        const embedded = await embed(
          chunks.slice(start, end).map((chunk) => chunk.indexed),
          'passage',
        );
        vectors.push(...embedded.vectors);
        model = embedded.model;
      }
      return { vectors, model };
    },
    store: (storeId, fileId, { chunks, strategy }, { vectors, model }) => {
      const origin = model ? originOf(model) : { model: modelId, source: '', revision: '', dimensions: 0, prefix: '' };
      return call((api) =>
        api.complete(
          db,
          storeId,
          fileId,
          chunks.map((chunk, i) => ({ ...chunk, vector: vectors[i]! })),
          strategy,
          origin,
          options.data?.keepFiles !== false,
        ),
      );
    },
    fail: async (storeId, fileId, error) => {
      if (background.signal.aborted) return;
      const message = error instanceof Error ? error.message : String(error);
      await call((api) => api.fail(db, storeId, fileId, { code: 'server_error', message }));
    },
  });
  /** Files a reload interrupted are ingested again when the engine first starts. */
  let resumed: Promise<void> | undefined;
  const resume = () =>
    (resumed ??= call((api) => api.pending(db)).then(
      (pending) => pending.forEach(({ storeId, fileId }) => void enqueue(storeId, fileId)),
      () => undefined,
    ));
  const run: typeof call = (work) => {
    void resume();
    return call(work);
  };

  return {
    putFile: (file, bytes) => run((api) => api.putFile(db, file, bytes)),
    listFiles: (params) => run((api) => api.listFiles(db, params)),
    getFile: (id) => run((api) => api.getFile(db, id)),
    fileContent: (id) => run((api) => api.fileContent(db, id)),
    deleteFile: (id) => run((api) => api.deleteFile(db, id)),
    createStore: (params) => run((api) => api.createStore(db, params)),
    listStores: (params) => run((api) => api.listStores(db, params)),
    getStore: (id) => run((api) => api.getStore(db, id)),
    updateStore: (id, patch) => run((api) => api.updateStore(db, id, patch)),
    deleteStore: (id) => run((api) => api.deleteStore(db, id)),
    addFiles: async (storeId, files, batch) => {
      await resume();
      const added = await run((api) => api.addFiles(db, storeId, files, batch));
      for (const entry of added.entries) void enqueue(storeId, entry.id);
      return added;
    },
    listEntries: (storeId, params) => run((api) => api.listEntries(db, storeId, params)),
    getEntry: (storeId, fileId) => run((api) => api.getEntry(db, storeId, fileId)),
    updateEntry: (storeId, fileId, attributes) => run((api) => api.updateEntry(db, storeId, fileId, attributes)),
    deleteEntry: (storeId, fileId) => run((api) => api.deleteEntry(db, storeId, fileId)),
    entryContent: (storeId, fileId) => run((api) => api.entryContent(db, storeId, fileId)),
    getBatch: (storeId, batchId) => run((api) => api.getBatch(db, storeId, batchId)),
    cancelBatch: (storeId, batchId) => run((api) => api.cancelBatch(db, storeId, batchId)),
    search: async (storeIds, query) => {
      // The stores' indexes load in the data worker while the query embeds in the encoder's; an
      // unknown store answers before the embedding's outcome.
      const ready = storeIds.length ? run((api) => api.ready(db, storeIds)) : undefined;
      const embedded = query.mode === 'semantic' || query.mode === 'hybrid' ? embed([query.text], 'query') : undefined;
      embedded?.catch(() => undefined);
      await ready;
      const vector = (await embedded)?.vectors[0];
      return run((api) => api.search(db, storeIds, { ...query, vector }));
    },
    dispose: () => {
      background.abort();
      host.dispose();
    },
  };
}

/** Files, vector stores and their search (IndexedDB + a parsing and search worker); vectors from the embeddings engine of its model. */
export function dataEngines(options: VaaniOptions, registry: EngineRegistry): EngineFactory<'data'>[] {
  return [
    {
      kind: 'data',
      models: modelsOf('data'),
      info: () => ({ backends: ['wasm'] }),
      create: (modelId) => dataEngine(modelId, options, registry),
    },
  ];
}

export default defineEngine({ kind: 'data', factories: ({ options, registry }) => dataEngines(options, registry) });
