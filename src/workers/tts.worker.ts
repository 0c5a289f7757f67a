import * as Comlink from 'comlink';
import { pullCommand } from '../store/folder-manifest';
import { storeLoader } from '../store/store-loader';
import type { StoreOptions } from '../store/types';
import { ESPEAK_KEY } from '../voice/catalogue';
import { ESPEAK_PACKAGE, loadEspeak, type Espeak } from '../voice/tts/espeak';
import { TtsError } from '../voice/tts/errors';
import type { SpeakContext, SpeakJob, SpeakResult } from '../voice/tts/job';
import { RUNTIMES } from '../voice/tts/runtimes';
import { encodeAudio, FormatUnavailable } from '../audio/encode';
import { exposeEngine } from './expose';

let espeak: { base: string | undefined; ready: Promise<Espeak> } | undefined;
let cancelled = false;

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

/** Lets queued messages (a cancel) run, without setTimeout's 4 ms clamp. */
const yieldToMessages = () =>
  new Promise<void>((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });

const api = {
  async speak(job: SpeakJob): Promise<SpeakResult> {
    cancelled = false;
    const context: SpeakContext = {
      espeak: () =>
        startEspeak(job.espeakBase, job.store).catch((error: unknown) => {
          if (error instanceof TtsError) throw error;
          throw new TtsError(
            503,
            `espeak-ng.data could not be loaded from ${job.espeakBase}: ${error instanceof Error ? error.message : String(error)}`,
            'tts_plugin_failed',
          );
        }),
      files: () =>
        storeLoader(job.weightsBase!, {
          ...job.store,
          ...(job.voice.spec.engine === 'espeak'
            ? {}
            : { model: job.voice.spec.download.weights, pull: pullCommand(job.voice.spec.download.weights) }),
        }),
      stopped: async () => {
        await yieldToMessages();
        return cancelled;
      },
    };
    try {
      const audio = await encodeAudio(await RUNTIMES[job.voice.spec.engine](job, context), job.format);
      return Comlink.transfer({ audio }, [audio.bytes]);
    } catch (error) {
      if (error instanceof FormatUnavailable)
        return { error: new TtsError(400, error.message, 'unsupported_format', 'response_format').toData() };
      if (!(error instanceof TtsError)) throw error;
      return { error: error.toData() };
    }
  },
  /** Stops the running request before its next clause. */
  cancel(): void {
    cancelled = true;
  },
};

export type TtsWorkerApi = typeof api;
exposeEngine(api);
