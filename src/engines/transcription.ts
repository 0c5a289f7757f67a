import sileroURL from '@ricky0123/vad-web/dist/silero_vad_v5.onnx?url';
import { ApiError } from '../api/errors';
import { possibleBackends } from '../backends/plan';
import { speechRecognitionSources } from '../catalogue/sources';
import { INDIC_CODES } from '../models/indic-conformer/languages';
import { whisperFiles } from '../models/whisper/files';
import { WHISPER_LANGUAGES } from '../models/whisper/languages';
import type { Transcript, TranscriptionEngine, TranscriptionParams } from '../protocol/audio';
import type { EngineFactory } from '../runtime/engines';
import { WorkerHost } from '../runtime/worker-host';
import { modelFiles } from './model-files';
import { sourceBase } from '../store/source';
import type { ModelSource, VaaniOptions } from '../types';
import type { WhisperWorkerApi } from '../workers/whisper.worker';
import { abortError } from '../runtime/abort';
import { indicEngine, type IndicSeen } from './transcription-indic';
import { engineFor, routeTranscription } from './stt-routing';

/** Catalogue ids answered by local speech recognition (Whisper, and IndicConformer for India's 22 languages). */
export const LOCAL_STT_MODELS = ['speech-stt-v1'] as const;

/** Languages of a multilingual Whisper vocabulary without large-v3's Cantonese, until a model has loaded. */
const MULTILINGUAL = WHISPER_LANGUAGES.map(([code]) => code).filter((code) => code !== 'yue');

interface Seen {
  backend?: string;
  languages?: string[];
  indic: IndicSeen;
}

type Result<T> = T | { error: { status: number; message: string; code: string | null; param: string | null } };
function unwrap<T extends object>(result: Result<T>): T {
  if ('error' in result)
    throw new ApiError(result.error.status, result.error.message, result.error.code, result.error.param);
  return result as T;
}

/** The Whisper family's page side: transcription and translation, and language detection for routing. */
function whisperEngine(modelId: string, options: VaaniOptions, source: ModelSource, seen: Seen) {
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
  const job = (bytes: Uint8Array) => ({
    model: modelId,
    base,
    store: options.store,
    dtype: source.dtype,
    backend: options.backend ?? 'auto',
    threads: options.threads,
    audio: bytes,
  });
  const run = <T>(signal: AbortSignal, call: (api: WhisperWorkerApi) => Promise<T>) =>
    host.run(async (api) => {
      const cancel = () => void api.cancel();
      signal.addEventListener('abort', cancel, { once: true });
      try {
        return await call(api);
      } finally {
        signal.removeEventListener('abort', cancel);
      }
    }, signal);
  return {
    async transcribe(bytes: Uint8Array, params: Omit<TranscriptionParams, 'audio'>, signal: AbortSignal) {
      const { model, task, language, prompt, temperature, timestamps, guards, chunking } = params;
      const result = await run(signal, (api) =>
        api.transcribe({
          ...job(bytes),
          vadURL: new URL(sileroURL, globalThis.location?.href).href,
          params: { model, task, language, prompt, temperature, timestamps, guards, chunking },
        }),
      );
      if (signal.aborted) throw abortError(signal);
      const { transcript, backend, languages } = unwrap(result);
      seen.backend = backend;
      seen.languages = languages;
      return transcript;
    },
    async detect(bytes: Uint8Array, signal: AbortSignal): Promise<string> {
      const result = await run(signal, (api) => api.detect(job(bytes)));
      if (signal.aborted) throw abortError(signal);
      return unwrap(result).language;
    },
    dispose: () => host.dispose(),
  };
}

function speechRecognition(
  modelId: string,
  options: VaaniOptions,
  seen: Seen,
): TranscriptionEngine & { dispose(): void } {
  const sources = speechRecognitionSources(options);
  const config = { indic: sources.indic !== undefined, languages: sources.languages };
  let whisper: ReturnType<typeof whisperEngine> | undefined;
  let indic: ReturnType<typeof indicEngine> | undefined;
  const whisperOf = () => (whisper ??= whisperEngine(modelId, options, sources.whisper, seen));
  return {
    async transcribe({ audio, ...params }, signal) {
      const bytes = new Uint8Array(await audio.arrayBuffer());
      const route = await routeTranscription(params, config, () => whisperOf().detect(bytes, signal));
      let transcript: Transcript;
      if (route.engine === 'indic-conformer') {
        indic ??= indicEngine(modelId, options, sources.indic!, seen.indic);
        transcript = await indic.transcribe(bytes, { ...params, language: route.language! }, signal);
      } else {
        transcript = await whisperOf().transcribe(bytes, { ...params, language: route.language }, signal);
      }
      return { ...transcript, engine: { name: route.engine, language_source: route.source } };
    },
    dispose() {
      whisper?.dispose();
      indic?.dispose();
    },
  };
}

/**
 * speech-stt-v1: Whisper and IndicConformer behind one id; /v1/models shows the backend, every
 * language and the family that recognises each.
 */
export function transcriptionEngines(options: VaaniOptions): EngineFactory<'transcription'>[] {
  return LOCAL_STT_MODELS.map((modelId) => {
    const seen: Seen = { indic: {} };
    return {
      kind: 'transcription',
      models: [modelId],
      info: () => {
        const sources = speechRecognitionSources(options);
        const config = { indic: sources.indic !== undefined, languages: sources.languages };
        const languages = [...new Set([...(seen.languages ?? MULTILINGUAL), ...(config.indic ? INDIC_CODES : [])])];
        return {
          backends: seen.backend ? [seen.backend] : possibleBackends(options.backend),
          languages,
          languageEngines: Object.fromEntries(languages.map((code) => [code, engineFor(code, config)])),
        };
      },
      create: () => speechRecognition(modelId, options, seen),
      files: () => modelFiles(modelId, options, whisperFiles),
    };
  });
}
