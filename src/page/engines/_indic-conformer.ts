import * as Comlink from 'comlink';
import sileroURL from '@ricky0123/vad-web/dist/silero_vad_v5.onnx?url';
import type { IndicConformerWorker, Transcript, TranscriptionParams } from '../../protocol/transcription';
import type { EngineHosts } from '../hosts/engine-hosts';
import { modelJob } from './_model-files';
import type { ModelSource, VaaniOptions } from '../../protocol/options';

export interface IndicSeen {
  backend?: string;
  dtype?: string;
}

/** The IndicConformer family's page side: one worker, decoded audio bytes in, a transcript out. */
export function indicEngine(
  modelId: string,
  options: VaaniOptions,
  source: ModelSource & { decoding?: 'ctc' | 'rnnt' },
  seen: IndicSeen,
  hosts: EngineHosts,
) {
  const host = hosts.host<IndicConformerWorker>(
    {
      create: () =>
        new Worker(new URL('../../worker/transcription/indic-conformer.worker.ts', import.meta.url), {
          type: 'module',
          name: `vaani-stt-indic-${modelId}`,
        }),
      name: `IndicConformer speech recognition (${modelId})`,
      maxQueue: options.maxQueue,
    },
    `indic-conformer:${JSON.stringify([modelJob(modelId, options, source), source.decoding])}`,
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
              ...modelJob(modelId, options, source),
              audio: bytes,
              vadURL: new URL(sileroURL, globalThis.location?.href).href,
              language: params.language,
              decoding: params.decoding ?? source.decoding ?? 'ctc',
              words: params.words ?? false,
            },
            params.onText && Comlink.proxy({ text: params.onText }),
          ),
        signal,
      );
      seen.backend = result.backend;
      seen.dtype = result.dtype;
      return result.transcript;
    },
    dispose: () => host.dispose(),
  };
}
