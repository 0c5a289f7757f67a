import * as Comlink from 'comlink';
import sileroURL from '@ricky0123/vad-web/dist/silero_vad_v5.onnx?url';
import type { MoonshineWorker, Transcript, TranscriptionParams } from '../../protocol/transcription';
import type { EngineHosts } from '../hosts/engine-hosts';
import { modelJob } from './_model-files';
import type { ModelSource, VaaniOptions } from '../../protocol/options';
import { indicLanguageName } from '../../catalogue/languages/indic-conformer';

/** A language's Shruti source as a job: a hub repo's folder (`<code>/sherpa-onnx/`) under its base, a baseURL as given. */
export function shrutiJob(modelId: string, options: VaaniOptions, source: ModelSource & { folder?: string }) {
  const job = modelJob(modelId, options, source);
  return source.baseURL || !source.folder ? job : { ...job, base: new URL(source.folder, job.base).href };
}

/**
 * The compact per-language family's page side (Shruti in sherpa-onnx's Moonshine layout): one
 * worker, which keeps the last language's model loaded.
 */
export function shrutiEngine(
  modelId: string,
  options: VaaniOptions,
  sources: Record<string, ModelSource & { folder?: string }>,
  hosts: EngineHosts,
) {
  const host = hosts.host<MoonshineWorker>(
    {
      create: () =>
        new Worker(new URL('../../worker/transcription/moonshine.worker.ts', import.meta.url), {
          type: 'module',
          name: `vaani-stt-shruti-${modelId}`,
        }),
      name: `compact speech recognition (${modelId})`,
      maxQueue: options.maxQueue,
    },
    `shruti:${modelId}`,
  );
  return {
    async transcribe(
      bytes: Uint8Array,
      params: Omit<TranscriptionParams, 'audio'> & { language: string },
      signal: AbortSignal,
    ): Promise<Transcript> {
      const result = await host.run(
        (api) =>
          api.transcribe(
            {
              ...shrutiJob(modelId, options, sources[params.language]!),
              audio: bytes,
              vadURL: new URL(sileroURL, globalThis.location?.href).href,
              languageName: indicLanguageName(params.language),
            },
            params.onText && Comlink.proxy({ text: params.onText }),
          ),
        signal,
      );
      return result.transcript;
    },
    dispose: () => host.dispose(),
  };
}
