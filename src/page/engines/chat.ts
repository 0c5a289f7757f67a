import * as Comlink from 'comlink';
import { possibleBackends } from '../../common/backends/plan';
import { modelSource } from '../../catalogue/sources';
import { modelsOf } from '../../catalogue/families';
import type { ChatEngine, ChatEvents, ChatWorker, StartInfo } from '../../protocol/chat';
import { type EngineFactory, defineEngine } from './_registry';
import type { EngineHost, EngineHosts } from '../hosts/engine-hosts';
import type { WorkerHostOptions } from '../hosts/worker-host';
import { modelFiles, modelJob } from './_model-files';
import type { VaaniOptions } from '../../protocol/options';
import { llmFiles } from '../../common/layouts/chat';

type Acquire = (key: string, options: WorkerHostOptions) => { host: EngineHost<ChatWorker>; release(): void };

/** Hosts by share key: ids with one source (agent-v1 reading chat-v2's files) run on one engine, not two. */
function hostPool(hosts: EngineHosts): Acquire {
  const pool = new Map<string, { host: EngineHost<ChatWorker>; users: number }>();
  return (key, options) => {
    const entry = pool.get(key) ?? { host: hosts.host<ChatWorker>(options, key), users: 0 };
    pool.set(key, entry);
    entry.users++;
    let held = true;
    return {
      host: entry.host,
      release() {
        if (!held) return;
        held = false;
        if (--entry.users > 0) return;
        pool.delete(key);
        entry.host.dispose();
      },
    };
  };
}

/** Tokens a captured decoder's cache holds when `graphCapture` is `true`. */
export const CAPTURE_TOKENS = 4096;

/** `ModelSource.chat.graphCapture` as the job's cache size: undefined when off; a TypeError when invalid. */
export function captureTokens(modelId: string, options: VaaniOptions): number | undefined {
  const value = modelSource(modelId, options.models).chat?.graphCapture;
  if (value === undefined || value === false) return undefined;
  if (value === true) return CAPTURE_TOKENS;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 16) return value;
  throw new TypeError(
    `createVaani({ models: { '${modelId}': { chat: { graphCapture } } } }): true, false or a whole number of tokens (16 or more), not ${JSON.stringify(value)}.`,
  );
}

function chatEngine(
  modelId: string,
  options: VaaniOptions,
  onStart: (info: StartInfo) => void,
  acquire: Acquire,
): ChatEngine & { dispose(): void } {
  const source = modelSource(modelId, options.models);
  const capture = captureTokens(modelId, options);
  const job = { ...modelJob(modelId, options, source), ...(capture ? { capture } : {}) };
  const { host, release } = acquire(`chat:${JSON.stringify(job)}`, {
    create: () =>
      new Worker(new URL('../../worker/chat/chat.worker.ts', import.meta.url), {
        type: 'module',
        name: `vaani-chat-${job.model}`,
      }),
    name: `chat (${job.model})`,
    maxQueue: options.maxQueue,
  });
  return {
    async complete(params, hooks) {
      const events: ChatEvents = {
        onStart: (info) => {
          onStart(info);
          hooks.onStart(info);
        },
        onDelta: (delta) => hooks.onDelta(delta),
      };
      return host.run((api) => api.complete({ ...job, params }, Comlink.proxy(events)), hooks.signal);
    },
    prefill: (params, signal) => host.run((api) => api.prefill({ ...job, params }), signal),
    dispose: release,
  };
}

/**
 * One factory per local chat id (with code-v1's base model, and agent-v1 on the chat model's files);
 * /v1/models shows the backend in use and the real context once a model has run.
 */
export function chatEngines(options: VaaniOptions, hosts: EngineHosts): EngineFactory<'chat'>[] {
  const acquire = hostPool(hosts);
  return modelsOf('chat').map((modelId) => {
    captureTokens(modelId, options); // an invalid graphCapture is a TypeError from createVaani
    let used: StartInfo | undefined;
    return {
      kind: 'chat',
      models: [modelId],
      info: () => ({
        backends: used ? [used.backend] : possibleBackends(options.backend),
        ...(used?.contextLength ? { contextWindow: used.contextLength } : {}),
      }),
      create: () => chatEngine(modelId, options, (info) => (used = info), acquire),
      files: () => modelFiles(modelId, options, llmFiles),
    };
  });
}

export default defineEngine({ kind: 'chat', factories: ({ options, hosts }) => chatEngines(options, hosts) });
