import * as Comlink from 'comlink';
import type { ChangePlan, TransformEngine, TransformParams, TransformWorker } from '../../protocol/transform';
import { type EngineFactory, defineEngine } from './_registry';
import { WorkerHost } from '../hosts/worker-host';
import type { VaaniOptions } from '../../protocol/options';
import { findVoice, toVoice, voiceNotFound, VOICES } from '../../catalogue/voices';
import { modelsOf } from '../../catalogue/families';

function transformEngine(options: VaaniOptions): TransformEngine & { dispose(): void } {
  const host = new WorkerHost<TransformWorker>({
    create: () =>
      new Worker(new URL('../../worker/transform/transform.worker.ts', import.meta.url), {
        type: 'module',
        name: 'vaani-dsp',
      }),
    name: 'audio DSP',
    maxQueue: options.maxQueue,
  });

  async function run(params: TransformParams, signal: AbortSignal, plan?: ChangePlan) {
    const bytes = new Uint8Array(await params.audio.arrayBuffer());
    return host.run((api) => {
      const transferred = Comlink.transfer(bytes, [bytes.buffer]);
      return plan ? api.changeVoice(transferred, plan) : api.isolate(transferred);
    }, signal);
  }

  function target(params: TransformParams) {
    const voice = params.voice === undefined ? undefined : findVoice(params.voice);
    if (!voice) throw voiceNotFound(params.voice);
    return { medianF0: voice.medianF0, formantScale: voice.formantScale };
  }

  return {
    voices: () => VOICES.map(toVoice),
    isolate: (params, signal) => run(params, signal),
    changeVoice: (params, signal) => run(params, signal, { target: target(params), speed: 1, contour: 'keep' }),
    speechToSpeech: (params, signal) =>
      run(params, signal, {
        target: target(params),
        speed: params.speed,
        contour: { stability: params.stability, style: params.style },
      }),
    dispose: () => host.dispose(),
  };
}

/** The audio-to-audio routes (isolation, voice changer, speech-to-speech) for both voice models, in one DSP worker. */
export function transformEngines(options: VaaniOptions): EngineFactory<'transform'>[] {
  return [
    {
      kind: 'transform',
      models: modelsOf('transform'),
      info: () => ({ backends: ['wasm'] }),
      voices: () => VOICES.map(toVoice),
      create: () => transformEngine(options),
    },
  ];
}

export default defineEngine({ kind: 'transform', factories: ({ options }) => transformEngines(options) });
