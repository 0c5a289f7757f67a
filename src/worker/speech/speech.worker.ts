import * as Comlink from 'comlink';
import { pullCommand, storeLoader } from '../../common/weights';
import type { StoreOptions } from '../../protocol/options';
import { ESPEAK_KEY } from '../../catalogue/voices';
import { ESPEAK_PACKAGE, loadEspeak, type Espeak } from './espeak';
import type { EncodedAudio, EncoderPlugins, SpeakJob, SpeechWorker } from '../../protocol/speech';
import { EngineError, invalidInput, messageOf } from '../../protocol/errors';
import type { SpeakContext } from './job';
import { RUNTIMES } from './runtimes';
import { normaliseSpeech } from '../../common/speech-text';
import { availableFormats, encodeAudio, FormatUnavailable } from '../../common/audio/encode';
import type { Served } from '../../protocol/worker';
import { exposeEngine } from '../host/expose';
import { storeFull } from '../host/model-slot';

let espeak: { base: string | undefined; ready: Promise<Espeak> } | undefined;

/**
 * eSpeak once per worker (its 24 MB data loads once); a failed start is retried next request. With
 * a base URL, espeak-ng.js and espeak-ng.data both come from there; else the bare package name.
 */
function startEspeak(base: string | undefined, store: StoreOptions | undefined): Promise<Espeak> {
  if (!espeak || espeak.base !== base) {
    const ready = base
      ? storeLoader(base, { ...store, model: ESPEAK_KEY })
          .load('espeak-ng.data')
          .then((data) => loadEspeak(new URL('espeak-ng.js', base).href, data))
      : loadEspeak(ESPEAK_PACKAGE);
    ready.catch(() => {
      if (espeak?.ready === ready) espeak = undefined;
    });
    espeak = { base, ready };
  }
  return espeak.ready;
}

const api = {
  async speak(signal: AbortSignal, job: SpeakJob): Promise<EncodedAudio> {
    const context: SpeakContext = {
      espeak: () =>
        startEspeak(job.espeakBase, job.store).catch((error: unknown) => {
          if (error instanceof EngineError) throw error;
          throw (
            storeFull(error) ??
            new EngineError(
              'unavailable',
              `espeak-ng.data could not be loaded from ${job.espeakBase}: ${messageOf(error)}`,
              'tts_plugin_failed',
            )
          );
        }),
      files: () =>
        storeLoader(job.weightsBase!, {
          ...job.store,
          ...(job.voice.spec.engine === 'espeak'
            ? {}
            : { model: job.voice.spec.download.weights, pull: pullCommand(job.voice.spec.download.weights) }),
        }),
      signal,
    };
    const text = job.normalize ? normaliseSpeech(job.text, job.voice.languageCode) : job.text;
    const audio = await encodeAudio(
      await RUNTIMES[job.voice.spec.engine]({ ...job, text }, context),
      job.format,
      job.encoders,
    ).catch((error: unknown) => {
      if (error instanceof FormatUnavailable)
        throw invalidInput(error.message, 'response_format', 'unsupported_format');
      throw error;
    });
    return Comlink.transfer(audio, [...new Set(audio.chunks.map((chunk) => chunk.buffer))]);
  },
  /** The formats `speak` can write here, the plug-ins loaded to tell. */
  formats: (_signal: AbortSignal, encoders: EncoderPlugins) => availableFormats(encoders),
} satisfies Served<SpeechWorker>;

exposeEngine(api);
