import { ApiError } from '../api/errors';
import { possibleBackends } from '../backends/plan';
import { modelSource } from '../catalogue/sources';
import { whisperFiles } from '../models/whisper/files';
import { WHISPER_LANGUAGES } from '../models/whisper/languages';
import type { TranscriptionEngine } from '../protocol/audio';
import type { EngineFactory } from '../runtime/engines';
import { WorkerHost } from '../runtime/worker-host';
import { modelFiles } from './model-files';
import { sourceBase } from '../store/source';
import type { VaaniOptions } from '../types';
import type { WhisperWorkerApi } from '../workers/whisper.worker';
import { abortError } from '../runtime/abort';

/** Catalogue ids answered by a local Whisper model. */
export const LOCAL_STT_MODELS = ['speech-stt-v1'] as const;

/** Languages of a multilingual Whisper vocabulary without large-v3's Cantonese, until a model has loaded. */
const MULTILINGUAL = WHISPER_LANGUAGES.map(([code]) => code).filter((code) => code !== 'yue');

interface Seen {
  backend?: string;
  languages?: string[];
}

function transcriptionEngine(
  modelId: string,
  options: VaaniOptions,
  seen: Seen,
): TranscriptionEngine & { dispose(): void } {
  const source = modelSource(modelId, options.models);
  const base = sourceBase(source);
  const host = new WorkerHost<WhisperWorkerApi>({
    create: () =>
      new Worker(new URL('../workers/whisper.worker.ts', import.meta.url), {
        type: 'module',
        name: `vaani-stt-${modelId}`,
      }),
    name: `speech recognition (${modelId})`,
    maxQueue: options.maxQueue,
  });
  return {
    async transcribe({ audio, ...params }, signal) {
      const bytes = new Uint8Array(await audio.arrayBuffer());
      const result = await host.run(async (api) => {
        const cancel = () => void api.cancel();
        signal.addEventListener('abort', cancel, { once: true });
        try {
          return await api.transcribe({
            model: modelId,
            base,
            store: options.store,
            dtype: source.dtype,
            backend: options.backend ?? 'auto',
            threads: options.threads,
            audio: bytes,
            params,
          });
        } finally {
          signal.removeEventListener('abort', cancel);
        }
      }, signal);
      if (signal.aborted) throw abortError(signal);
      if ('error' in result)
        throw new ApiError(result.error.status, result.error.message, result.error.code, result.error.param);
      seen.backend = result.backend;
      seen.languages = result.languages;
      return result.transcript;
    },
    dispose: () => host.dispose(),
  };
}

/** speech-stt-v1 on a Whisper export; /v1/models shows its backend and the languages it recognises. */
export function transcriptionEngines(options: VaaniOptions): EngineFactory<'transcription'>[] {
  return LOCAL_STT_MODELS.map((modelId) => {
    const seen: Seen = {};
    return {
      kind: 'transcription',
      models: [modelId],
      info: () => ({
        backends: seen.backend ? [seen.backend] : possibleBackends(options.backend),
        languages: seen.languages ?? MULTILINGUAL,
      }),
      create: () => transcriptionEngine(modelId, options, seen),
      files: () => modelFiles(modelId, options, whisperFiles),
    };
  });
}
