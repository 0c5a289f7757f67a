import type { EncoderPlugins, SpeakJob, SpeechEngine, SpeechFormat, SpeechWorker } from '../../protocol/speech';
import { LAME_FILE, LAME_KEY } from '../../common/audio/encode/plugins';
import { voiceNotFound, ESPEAK_KEY, findVoice, toVoice, VOICES } from '../../catalogue/voices';
import { type EngineFactory, defineEngine } from './_registry';
import type { EngineHosts } from '../hosts/engine-hosts';
import { sourceBase } from '../../catalogue/sources';
import { modelsOf } from '../../catalogue/families';
import { pinnedBase } from './_model-files';
import type { VaaniOptions } from '../../protocol/options';

function speechEngine(options: VaaniOptions, hosts: EngineHosts): SpeechEngine & { dispose(): void } {
  const host = hosts.host<SpeechWorker>(
    {
      create: () =>
        new Worker(new URL('../../worker/speech/speech.worker.ts', import.meta.url), {
          type: 'module',
          name: 'vaani-tts',
        }),
      name: 'speech',
      maxQueue: options.maxQueue,
    },
    `speech:${JSON.stringify([options.models ?? {}, options.store ?? {}])}`,
  );
  const espeak = options.models?.[ESPEAK_KEY];
  const lame = options.models?.[LAME_KEY];
  const encoders: EncoderPlugins = lame ? { mp3: new URL(LAME_FILE, sourceBase(lame)).href } : {};
  let formats: Promise<SpeechFormat[]> | undefined;

  function job(params: Parameters<SpeechEngine['speak']>[0]): SpeakJob {
    const voice = findVoice(params.voice);
    if (!voice) throw voiceNotFound(params.voice);
    const weights = voice.spec.engine === 'espeak' ? undefined : voice.spec.download;
    const source = weights && (options.models?.[weights.weights] ?? { repo: weights.repo, revision: weights.revision });
    return {
      voice,
      text: params.input,
      normalize: params.apply_text_normalization !== 'off',
      format: params.response_format,
      speed: params.speed,
      stability: params.stability,
      style: params.style,
      espeakBase: espeak ? sourceBase(espeak) : undefined,
      encoders,
      weightsBase: source ? pinnedBase(weights!.weights, source) : undefined,
      dtype: source?.dtype,
      store: options.store,
    };
  }

  return {
    voices: () => VOICES.map(toVoice),
    async speak(params, signal) {
      const request = job(params);
      return host.run((api) => api.speak(request), signal);
    },
    formats(signal) {
      // Asked once per engine; a failed check (a cancelled request, a crashed worker) is asked again.
      const asked = (formats ??= host.run((api) => api.formats(encoders), signal));
      asked.catch(() => {
        if (formats === asked) formats = undefined;
      });
      return asked;
    },
    dispose: () => host.dispose(),
  };
}

/** Every catalogue voice, each spoken by its own runtime in one TTS worker. */
export function speechEngines(options: VaaniOptions, hosts: EngineHosts): EngineFactory<'speech'>[] {
  let shared: ReturnType<typeof speechEngine> | undefined;
  return [
    {
      kind: 'speech',
      models: modelsOf('speech'),
      info: () => ({ backends: ['wasm'] }),
      voices: () => VOICES.map(toVoice),
      create: () => (shared ??= speechEngine(options, hosts)),
    },
  ];
}

export default defineEngine({ kind: 'speech', factories: ({ options, hosts }) => speechEngines(options, hosts) });
