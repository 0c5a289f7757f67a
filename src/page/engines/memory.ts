import type { MemoryEngine, MemoryWorker } from '../../protocol/memory';
import { originOf } from '../../protocol/memory';
import { modelsOf } from '../../catalogue/families';
import { type EngineFactory, defineEngine } from './_registry';
import { WorkerHost } from '../hosts/worker-host';
import { DEFAULT_DATABASES, type VaaniOptions } from '../../protocol/options';

/** Asks the browser once to keep this site's storage under pressure (memories should survive). */
let persisted: Promise<boolean> | undefined;
const persist = () =>
  (persisted ??= globalThis.navigator?.storage?.persist?.().catch(() => false) ?? Promise.resolve(false));

function memoryEngine(options: VaaniOptions): MemoryEngine & { dispose(): void } {
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
  return {
    store: async (items, model, signal) => {
      void persist();
      return run((api) => api.store(db, items, originOf(model)), signal);
    },
    search: (query, model, signal) => run((api) => api.search(db, query, model && originOf(model)), signal),
    get: (id, signal) => run((api) => api.get(db, id), signal),
    list: (params, signal) => run((api) => api.list(db, params), signal),
    update: (id, patch, model, signal) => run((api) => api.update(db, id, patch, model && originOf(model)), signal),
    remove: (id, signal) => run((api) => api.remove(db, id), signal),
    removeWhere: (scope, filters, signal) => run((api) => api.removeWhere(db, scope, filters), signal),
    dispose: () => host.dispose(),
  };
}

/** The memory store (IndexedDB + a search worker); its vectors come from embed-v1. */
export function memoryEngines(options: VaaniOptions): EngineFactory<'memory'>[] {
  return [
    {
      kind: 'memory',
      models: modelsOf('memory'),
      info: () => ({ backends: ['wasm'] }),
      create: () => memoryEngine(options),
    },
  ];
}

export default defineEngine({ kind: 'memory', factories: ({ options }) => memoryEngines(options) });
