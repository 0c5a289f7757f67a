import * as Comlink from 'comlink';
import sileroURL from '@ricky0123/vad-web/dist/silero_vad_v5.onnx?url';
import { possibleBackends } from '../../common/backends/plan';
import { speechRecognitionSources, type SpeechRecognitionSources } from '../../catalogue/sources';
import { modelsOf } from '../../catalogue/families';
import { INDIC_CODES } from '../../catalogue/languages/indic-conformer';
import { whisperFiles } from '../../common/layouts/whisper';
import { WHISPER_LANGUAGES } from '../../catalogue/languages/whisper';
import type { Transcript, TranscriptionEngine, TranscriptionParams, WhisperWorker } from '../../protocol/transcription';
import { type CompactModel, type EngineFactory, type EngineRegistry, defineEngine } from './_registry';
import { SHRUTI_MODELS } from '../../catalogue/shruti';
import type { EngineHosts } from '../hosts/engine-hosts';
import { modelFiles, modelJob } from './_model-files';
import type { ModelSource, VaaniOptions } from '../../protocol/options';
import { indicEngine, type IndicSeen } from './_indic-conformer';
import { engineFor, routeTranscription } from './_stt-routing';
import { shrutiEngine } from './_shruti';

/** Languages of a multilingual Whisper vocabulary without large-v3's Cantonese, until a model has loaded. */
const MULTILINGUAL = WHISPER_LANGUAGES.map(([code]) => code).filter((code) => code !== 'yue');

interface Seen {
  backend?: string;
  languages?: string[];
  indic: IndicSeen;
}

/** The Whisper family's page side: transcription and translation, and language detection for routing. */
function whisperEngine(modelId: string, options: VaaniOptions, source: ModelSource, seen: Seen, hosts: EngineHosts) {
  const host = hosts.host<WhisperWorker>(
    {
      create: () =>
        new Worker(new URL('../../worker/transcription/whisper.worker.ts', import.meta.url), {
          type: 'module',
          name: `vaani-stt-${modelId}`,
        }),
      name: `speech recognition (${modelId})`,
      maxQueue: options.maxQueue,
    },
    `whisper:${JSON.stringify(modelJob(modelId, options, source))}`,
  );
  const job = (bytes: Uint8Array) => ({ ...modelJob(modelId, options, source), audio: bytes });
  return {
    async transcribe(bytes: Uint8Array, params: Omit<TranscriptionParams, 'audio'>, signal: AbortSignal) {
      const { model, task, language, prompt, temperature, timestamps, words, guards, chunking, onText } = params;
      const { transcript, backend, languages } = await host.run(
        (api) =>
          api.transcribe(
            {
              ...job(bytes),
              vadURL: new URL(sileroURL, globalThis.location?.href).href,
              params: { model, task, language, prompt, temperature, timestamps, words, guards, chunking },
            },
            onText && Comlink.proxy({ text: onText }),
          ),
        signal,
      );
      seen.backend = backend;
      seen.languages = languages;
      return transcript;
    },
    detect: (bytes: Uint8Array, signal: AbortSignal): Promise<string> =>
      host.run((api) => api.detect(job(bytes)), signal),
    dispose: () => host.dispose(),
  };
}

/** The compact models a page's sources allow: the catalogue's with their figures, an app's own location unsized. */
function compactModels(shruti: SpeechRecognitionSources['shruti']): CompactModel[] {
  return Object.entries(shruti).map(([language, source]) => {
    const listed = source.folder ? SHRUTI_MODELS.find((model) => model.language === language) : undefined;
    return {
      language,
      engine: 'shruti',
      name: listed?.name ?? `Shruti (${language})`,
      repo: source.repo ?? null,
      download_bytes: listed?.bytes ?? null,
      license: listed?.license ?? null,
      commercial: listed?.commercial ?? null,
    };
  });
}

/** The download policy for one family's files, asked by the engine before it starts that family. */
interface FilesGate {
  /** Resolves when the family's files may be read (null: Whisper's, the model's own; else 'indic-conformer'). */
  allow(part: string | null): Promise<void>;
  /** After a call read them. */
  read(part: string | null): Promise<void>;
}

function speechRecognition(
  modelId: string,
  options: VaaniOptions,
  seen: Seen,
  hosts: EngineHosts,
  files: FilesGate,
): TranscriptionEngine & { dispose(): void } {
  let whisper: ReturnType<typeof whisperEngine> | undefined;
  let indic: ReturnType<typeof indicEngine> | undefined;
  let shruti: ReturnType<typeof shrutiEngine> | undefined;
  // Sources are read at the first call, after the tier is settled; each family starts once its files are allowed.
  const whisperOf = async (sources: SpeechRecognitionSources) => {
    await files.allow(null);
    return (whisper ??= whisperEngine(modelId, options, sources.whisper, seen, hosts));
  };
  return {
    async transcribe({ audio, ...params }, signal) {
      const bytes = new Uint8Array(await audio.arrayBuffer());
      const sources = speechRecognitionSources(options, modelId);
      const config = {
        indic: sources.indic !== undefined,
        languages: sources.languages,
        shruti: Object.keys(sources.shruti),
      };
      const route = await routeTranscription(params, config, async () =>
        (await whisperOf(sources)).detect(bytes, signal),
      );
      let transcript: Transcript;
      if (route.engine === 'shruti') {
        // Each language is a model of its own: its files are gated apart.
        const part = `shruti:${route.language!}`;
        await files.allow(part);
        shruti ??= shrutiEngine(modelId, options, sources.shruti, hosts);
        transcript = await shruti.transcribe(bytes, { ...params, language: route.language! }, signal);
        await files.read(part);
      } else if (route.engine === 'indic-conformer') {
        await files.allow('indic-conformer');
        indic ??= indicEngine(modelId, options, sources.indic!, seen.indic, hosts);
        transcript = await indic.transcribe(bytes, { ...params, language: route.language! }, signal);
        await files.read('indic-conformer');
      } else {
        transcript = await (
          await whisperOf(sources)
        ).transcribe(bytes, { ...params, language: route.language }, signal);
        await files.read(null);
      }
      return { ...transcript, engine: { name: route.engine, language_source: route.source } };
    },
    dispose() {
      whisper?.dispose();
      indic?.dispose();
      shruti?.dispose();
    },
  };
}

/**
 * speech-stt-v1: Whisper and IndicConformer behind one id; /v1/models shows the backend, every
 * language and the family that recognises each.
 */
export function transcriptionEngines(
  options: VaaniOptions,
  hosts: EngineHosts,
  registry: Pick<EngineRegistry, 'allow' | 'read'>,
): EngineFactory<'transcription'>[] {
  return modelsOf('transcription').map((modelId) => {
    const seen: Seen = { indic: {} };
    return {
      kind: 'transcription',
      models: [modelId],
      info: () => {
        const sources = speechRecognitionSources(options, modelId);
        const config = {
          indic: sources.indic !== undefined,
          languages: sources.languages,
          shruti: Object.keys(sources.shruti),
        };
        const languages = [...new Set([...(seen.languages ?? MULTILINGUAL), ...(config.indic ? INDIC_CODES : [])])];
        return {
          backends: seen.backend ? [seen.backend] : possibleBackends(options.backend),
          languages,
          languageEngines: Object.fromEntries(languages.map((code) => [code, engineFor(code, config)])),
          compactModels: compactModels(sources.shruti),
        };
      },
      create: () =>
        speechRecognition(modelId, options, seen, hosts, {
          allow: (part) => registry.allow('transcription', modelId, part),
          read: (part) => registry.read('transcription', modelId, part),
        }),
      files: () => modelFiles(modelId, options, whisperFiles),
    };
  });
}

export default defineEngine({
  kind: 'transcription',
  factories: ({ options, hosts, registry }) => transcriptionEngines(options, hosts, registry),
});
