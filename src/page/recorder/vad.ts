import * as Comlink from 'comlink';
import sileroURL from '@ricky0123/vad-web/dist/silero_vad_v5.onnx?url';
import { WorkerHost } from '../hosts/worker-host';
import { VAD_FRAME } from '../../common/audio/vad-frame';
import type { VadWorker } from '../../protocol/vad';

export interface VadOptions {
  /** Speech probability at which speech starts (Silero's output, 0–1). Default 0.5. */
  threshold?: number;
  /**
   * Stop after this much silence once speech has been heard, in ms. Default 1600: the longest pauses
   * inside a sentence in the recorded speech of ../shared/audio are about 1.0 s (JFK after "my
   * fellow Americans", Common Voice between phrases), which a 1000 ms default cut at.
   */
  silenceMs?: number;
  /**
   * Speech must last this long (ms above threshold within one stretch, the hysteresis band's dips
   * between syllables included) to count: a click does not start it. Default 100 (three Silero frames).
   */
  minSpeechMs?: number;
  /** Audio kept before the first and after the last speech, in ms. Default 100. */
  padMs?: number;
  /**
   * Stop after this much audio with no speech heard at all, in ms (the recording then has
   * `speech: null`). Default: no limit, the recorder waits for speech or `stop()`.
   */
  noSpeechMs?: number;
  /**
   * A shorter silence after speech at which a 'pause' comes with the speech so far; its listener may
   * end the recording there (a transcript that already ends a sentence). Default: none, only
   * `silenceMs` ends it.
   */
  pauseMs?: number;
}

export interface SpeechSpan {
  /** Seconds from the start of the recording (its sample clock: samples ÷ 16 000, not arrival times). */
  start: number;
  end: number;
}

/** What the tracker tells its recorder; positions are sample indices of the recording (its sample clock). */
export interface SpeechEvents {
  /** Speech started; `sample`: the first frame that was above threshold. */
  speechStart(sample: number): void;
  /** Speech ended `silenceMs` ago; `sample`: the end of the speech (the span's end). */
  speechEnd(sample: number): void;
  /**
   * `pauseMs` of silence after speech ending at `speechEnd`, decided at `sample`. `end(afterMs)` ends
   * the speech once its silence reaches `afterMs` (now, if it has), unless speech comes back first:
   * then (or when the recording stopped) false.
   */
  pause(speechEnd: number, sample: number, end: (afterMs?: number) => Promise<boolean>): void;
  /** Stop here: the silence after speech, or `noSpeechMs` without any, ends at `sample`. */
  silence(sample: number): void;
  error(error: Error): void;
}

const RATE = 16000;
/** Milliseconds of `frames` VAD frames. */
const ms = (frames: number) => (frames * VAD_FRAME * 1000) / RATE;

/**
 * Feeds 16 kHz audio to Silero VAD in its worker, frame by frame, and tracks where speech starts
 * and ends (hysteresis: speech continues while the probability stays above threshold − 0.15).
 */
export class SpeechTracker {
  private pending = new Float32Array(0);
  /** A call to the worker is queued that will take what `pending` holds when it runs. */
  private scheduled = false;
  /** The recording was stopped here (silence, or no speech): later frames are not its audio. */
  private ended = false;
  private frames = 0;
  private firstSpeech: number | undefined;
  private lastSpeech: number | undefined;
  /** The last speech frame whose silence has had its 'pause'. */
  private paused: number | undefined;
  /** An end asked for at a pause, waiting for the silence after `speech` to reach `afterMs`. */
  private pendingEnd: { speech: number; afterMs: number; resolve: (ended: boolean) => void } | undefined;
  private speaking = false;
  /** Frames above threshold in the current stretch of likely speech; the first frame ever above it. */
  private run = 0;
  private onset: number | undefined;
  private work: Promise<void>;
  /** The first failure of the VAD worker: no frame is tracked after it. */
  private failure: Error | undefined;
  readonly threshold: number;
  readonly silenceMs: number;
  readonly minSpeechMs: number;
  readonly padMs: number;
  readonly noSpeechMs: number;
  readonly pauseMs: number;

  /** `host`: Silero's worker (a stand-in in unit tests of the tracking). */
  constructor(
    options: VadOptions,
    private readonly events: SpeechEvents,
    private readonly host: Pick<WorkerHost<VadWorker>, 'run' | 'dispose'> = new WorkerHost<VadWorker>({
      create: () =>
        new Worker(new URL('../../worker/recorder/vad.worker.ts', import.meta.url), {
          type: 'module',
          name: 'vaani-vad',
        }),
      name: 'voice activity detection',
    }),
  ) {
    this.threshold = options.threshold ?? 0.5;
    this.silenceMs = options.silenceMs ?? 1600;
    this.minSpeechMs = options.minSpeechMs ?? 100;
    this.padMs = options.padMs ?? 100;
    this.noSpeechMs = options.noSpeechMs ?? Infinity;
    this.pauseMs = options.pauseMs ?? Infinity;
    this.work = this.guard(this.host.run((api) => api.reset(new URL(sileroURL, globalThis.location?.href).href)));
  }

  /** A failed step (the model did not load, the worker crashed or stalled) is reported once, not left to hang the silence. */
  private guard(step: Promise<void>): Promise<void> {
    return step.catch((error: unknown) => {
      if (this.failure) return;
      this.failure = error instanceof Error ? error : new Error(String(error));
      this.settle(false);
      this.events.error(this.failure);
    });
  }

  /**
   * Queues samples; whole frames go to the model in order. Each call to the worker takes every frame
   * that waited, so a VAD that fell behind the microphone (a busy machine) catches up at the model's
   * speed instead of one round trip per block.
   */
  push(samples: Float32Array): void {
    if (this.failure || this.ended) return;
    const joined = new Float32Array(this.pending.length + samples.length);
    joined.set(this.pending);
    joined.set(samples, this.pending.length);
    this.pending = joined;
    if (this.scheduled) return;
    this.scheduled = true;
    this.work = this.guard(
      this.work.then(async () => {
        this.scheduled = false;
        const whole = this.pending.length - (this.pending.length % VAD_FRAME);
        if (whole === 0 || this.failure || this.ended) return;
        const frames = this.pending.slice(0, whole);
        this.pending = this.pending.slice(whole);
        this.track(await this.host.run((api) => api.probabilities(Comlink.transfer(frames, [frames.buffer]))));
      }),
    );
  }

  private track(probabilities: Float32Array): void {
    for (const p of probabilities) {
      if (this.ended) return;
      const frame = this.frames++;
      // Speech starts once a stretch holds minSpeechMs above threshold (the hysteresis band's dips
      // between syllables do not end a stretch, a drop below it does); the kept audio starts at the
      // first frame that was ever above threshold, so the onset of a first syllable is never cut.
      if (p >= this.threshold) {
        this.run++;
        this.onset ??= frame;
      } else if (p < this.threshold - 0.15) this.run = 0;
      if (!this.speaking && this.run > 0 && ms(this.run) >= this.minSpeechMs) {
        this.firstSpeech ??= this.onset;
        this.events.speechStart(this.firstSpeech! * VAD_FRAME);
        this.speaking = true;
      }
      if (this.speaking && p >= this.threshold - 0.15) this.lastSpeech = frame;
      const silent = this.speaking && this.lastSpeech !== undefined ? ms(frame - this.lastSpeech) : 0;
      const pending = this.pendingEnd;
      if (pending && pending.speech !== this.lastSpeech) this.settle(false);
      if (silent >= this.silenceMs) this.endSpeech(frame + 1);
      else if (pending && this.pendingEnd === pending && silent >= pending.afterMs) {
        this.pendingEnd = undefined;
        this.endSpeech(frame + 1);
        pending.resolve(true);
      } else if (silent >= this.pauseMs && this.paused !== this.lastSpeech) {
        const speech = (this.paused = this.lastSpeech!);
        this.events.pause(this.endFrame() * VAD_FRAME, (frame + 1) * VAD_FRAME, (afterMs = 0) =>
          this.endAtPause(speech, afterMs),
        );
      }
      if (this.firstSpeech === undefined && ms(frame + 1) >= this.noSpeechMs) {
        this.ended = true;
        this.events.silence((frame + 1) * VAD_FRAME);
      }
    }
  }

  private endSpeech(frames: number): void {
    this.settle(false);
    this.speaking = false;
    this.ended = true;
    this.events.speechEnd(this.endFrame() * VAD_FRAME);
    this.events.silence(frames * VAD_FRAME);
  }

  /** Answers the end waiting at a pause, if any. */
  private settle(ended: boolean): void {
    const pending = this.pendingEnd;
    this.pendingEnd = undefined;
    pending?.resolve(ended);
  }

  /**
   * Ends the speech at the pause after `speech` (its last frame) once the frames queued now are judged
   * and its silence has reached `afterMs`, unless speech came back.
   */
  private async endAtPause(speech: number, afterMs: number): Promise<boolean> {
    await this.work;
    if (this.ended || this.failure || this.lastSpeech !== speech) return false;
    if (ms(this.frames - 1 - speech) >= afterMs) {
      this.endSpeech(this.frames);
      return true;
    }
    this.settle(false);
    return new Promise((resolve) => (this.pendingEnd = { speech, afterMs, resolve }));
  }

  /** Waits for every queued frame; the speech span so far, or undefined when none was heard. Rejects when the VAD failed. */
  async span(): Promise<SpeechSpan | undefined> {
    await this.work;
    if (this.failure) throw this.failure;
    return this.spanNow();
  }

  /** The speech span judged so far, without waiting for queued frames. */
  spanNow(): SpeechSpan | undefined {
    if (this.firstSpeech === undefined || this.lastSpeech === undefined) return undefined;
    return { start: (this.firstSpeech * VAD_FRAME) / RATE, end: (this.endFrame() * VAD_FRAME) / RATE };
  }

  /** Silero's probability trails the sound by about a frame: speech ends where the last speech frame begins. */
  private endFrame(): number {
    return Math.max(this.lastSpeech!, this.firstSpeech! + 1);
  }

  dispose(): void {
    this.settle(false);
    this.host.dispose();
  }
}
