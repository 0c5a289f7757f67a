import * as Comlink from 'comlink';
import { possibleBackends } from '../backends/plan';
import { modelSource } from '../catalogue/sources';
import type { ChatEngine, ChatEvents, StartInfo } from '../protocol/chat';
import type { EngineFactory } from '../runtime/engines';
import type { EngineHosts } from '../runtime/engine-host';
import { modelFiles, modelJob } from './model-files';
import type { VaaniOptions } from '../types';
import { llmFiles } from '../models/llm/manifest';
import type { ChatWorkerApi } from '../workers/chat.worker';

/**
 * Ids answered by a local decoder LLM: the chat models, code-v1 (instruct) with its base model for
 * completion and fill-in-the-middle (`code-v1-base`, not a catalogue id), and agent-v1.
 */
export const LOCAL_CHAT_MODELS = ['chat-v2', 'chat-v2-pro', 'code-v1', 'code-v1-base', 'agent-v1'] as const;

function chatEngine(
  modelId: string,
  options: VaaniOptions,
  onStart: (info: StartInfo) => void,
  hosts: EngineHosts,
): ChatEngine & { dispose(): void } {
  const source = modelSource(modelId, options.models);
  const host = hosts.host<ChatWorkerApi>(
    {
      create: () =>
        new Worker(new URL('../workers/chat.worker.ts', import.meta.url), {
          type: 'module',
          name: `vaani-chat-${modelId}`,
        }),
      name: `chat (${modelId})`,
      maxQueue: options.maxQueue,
    },
    `chat:${JSON.stringify(modelJob(modelId, options, source))}`,
  );
  return {
    async complete(params, hooks) {
      const events: ChatEvents = {
        onStart: (info) => {
          onStart(info);
          hooks.onStart(info);
        },
        onDelta: (delta) => hooks.onDelta(delta),
      };
      return host.run(
        (api) => api.complete({ ...modelJob(modelId, options, source), params }, Comlink.proxy(events)),
        hooks.signal,
      );
    },
    dispose: () => host.dispose(),
  };
}

/** One factory per local chat id; /v1/models shows the backend in use and the real context once a model has run. */
export function chatEngines(options: VaaniOptions, hosts: EngineHosts): EngineFactory<'chat'>[] {
  return LOCAL_CHAT_MODELS.map((modelId) => {
    let used: StartInfo | undefined;
    return {
      kind: 'chat',
      models: [modelId],
      info: () => ({
        backends: used ? [used.backend] : possibleBackends(options.backend),
        ...(used?.contextLength ? { contextWindow: used.contextLength } : {}),
      }),
      create: () => chatEngine(modelId, options, (info) => (used = info), hosts),
      files: () => modelFiles(modelId, options, llmFiles),
    };
  });
}
