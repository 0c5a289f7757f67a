import { planClauses, type ProsodyParams } from './prosody';
import { stopped } from '../../protocol/cancel';
import { EngineError } from '../../protocol/errors';
import { Pcm16Builder } from '../../common/audio/pcm16';

/** The parts of @echogarden/espeak-ng-emscripten's eSpeakNGWorker this engine uses. */
interface EspeakInstance {
  set_voice(name: string): number;
  set_rate(rate: number): void;
  set_pitch(pitch: number): void;
  set_range(range: number): void;
  synthesize(text: string, onAudio: (samples: Int16Array) => boolean): void;
  synthesize_ipa(text: string): { code: number; ipa: string };
  readonly samplerate: number;
}

interface EspeakModule {
  eSpeakNGWorker: new () => EspeakInstance;
}

type EspeakFactory = (module?: {
  getPreloadedPackage?(name: string, size: number): ArrayBuffer;
}) => Promise<EspeakModule>;

/** The plug-in's package; an import map may point this bare name at its espeak-ng.js. */
export const ESPEAK_PACKAGE = '@echogarden/espeak-ng-emscripten';

/**
 * Imports the optional eSpeak-NG plug-in (GPL-3.0) at run time from `moduleUrl`, never through the
 * bundler, so no build of the library or the app contains it unless the site serves it. `data` is
 * its 24 MB espeak-ng.data (from the weight store); without it eSpeak fetches the file from beside
 * its module.
 */
export async function loadEspeak(moduleUrl: string, data?: Uint8Array): Promise<Espeak> {
  let factory: EspeakFactory;
  try {
    factory = ((await import(/* @vite-ignore */ moduleUrl)) as { default: EspeakFactory }).default;
  } catch (error) {
    throw new EngineError(
      'unavailable',
      `The offline voices need the optional eSpeak-NG plug-in (GPL-3.0): npm install ${ESPEAK_PACKAGE}, serve its folder and pass createVaani({ models: { 'espeak-ng': { baseURL } } }). Loading ${moduleUrl} failed: ${error instanceof Error ? error.message : String(error)}`,
      'tts_plugin_missing',
    );
  }
  try {
    const module = await factory(
      data
        ? {
            getPreloadedPackage: () =>
              data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer,
          }
        : {},
    );
    return new Espeak(new module.eSpeakNGWorker());
  } catch (error) {
    throw new EngineError(
      'unavailable',
      `eSpeak-NG could not start (is espeak-ng.data reachable?): ${error instanceof Error ? error.message : String(error)}`,
      'tts_plugin_failed',
    );
  }
}

/** How often, in ms of synthesis, a long input checks for a cancel. */
const CHECK_MS = 50;

/** Below this magnitude a clause's last samples are the silence eSpeak leaves at its end. */
const TAIL_LEVEL = 64;

/** One eSpeak-NG instance: speaks text clause by clause with the request's prosody. */
export class Espeak {
  constructor(private readonly engine: EspeakInstance) {}

  get sampleRate(): number {
    return this.engine.samplerate;
  }

  /** Selects a voice, failing (instead of keeping the previous voice) when eSpeak lacks it. */
  useVoice(voice: string): void {
    const code = this.engine.set_voice(voice);
    if (code !== 0)
      throw new EngineError(
        'invalid_input',
        `eSpeak-NG cannot load the voice '${voice}' (error ${code}).`,
        'voice_unavailable',
        'voice',
      );
  }

  /**
   * Speaks `text` as 16-bit samples (eSpeak's own), each clause's trailing silence cut to 10 ms and
   * its pause after it. `signal` (read after a yield, so a cancel can arrive) is checked before the
   * first clause and then between clauses at most every CHECK_MS: each yield is a trip through the
   * browser's message loop, which costs more than a short clause when the machine is busy.
   */
  async speak(
    voice: string,
    text: string,
    params: ProsodyParams,
    signal: AbortSignal,
  ): Promise<Int16Array<ArrayBuffer>> {
    this.useVoice(voice);
    const clauses = planClauses(text, params);
    if (clauses.length === 0)
      throw new EngineError('invalid_input', '`input` has no letters or digits to speak.', 'invalid_value', 'input');
    const out = new Pcm16Builder();
    const keep = Math.round(this.sampleRate / 100);
    let checked = -Infinity;
    for (const [i, clause] of clauses.entries()) {
      if (performance.now() - checked >= CHECK_MS) {
        if (await stopped(signal)) throw new EngineError('aborted', 'The speech request was cancelled.', 'cancelled');
        checked = performance.now();
      }
      this.engine.set_rate(clause.rate);
      this.engine.set_pitch(clause.pitch);
      this.engine.set_range(clause.range);
      const start = out.length;
      this.engine.synthesize(clause.text, (samples) => {
        out.push(samples);
        return false;
      });
      out.length = Math.min(out.length, out.endAbove(start, TAIL_LEVEL) + keep);
      if (i < clauses.length - 1) out.silence(Math.round((clause.pauseMs * this.sampleRate) / 1000));
    }
    return out.result();
  }

  /** IPA phonemes of `text` in `voice`'s language, without eSpeak's separators or language marks. */
  phonemes(voice: string, text: string): string {
    this.useVoice(voice);
    const { code, ipa } = this.engine.synthesize_ipa(text);
    if (code !== 0)
      throw new EngineError(
        'internal',
        `eSpeak-NG could not phonemise the input (error ${code}).`,
        'phonemizer_failed',
      );
    return ipa
      .replace(/\([a-z-]+\)/g, '')
      .replace(/_/g, '')
      .replace(/\s+/g, ' ')
      .trim();
  }
}
