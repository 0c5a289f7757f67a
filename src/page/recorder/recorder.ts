// A URL to start the worklet by (vite builds it as its own file), not an import of its code.
// eslint-disable-next-line import-x/no-restricted-paths
import workletURL from '../../worker/recorder/recorder.worklet.ts?worker&url';
import type { RecorderCommand, RecorderMessage } from '../../protocol/recorder';
import { encodeWav } from '../../common/audio/encode/wav';
import { SpeechTracker, type SpeechSpan, type VadOptions } from './vad';
import { SampleClock } from './clock';

export interface RecorderOptions {
  /** Record this stream instead of asking for the microphone. */
  stream?: MediaStream;
  /** Trim silence with Silero VAD and stop by itself after a silence (true for the defaults). */
  vad?: boolean | VadOptions;
}

export interface Recording {
  /** 16 kHz mono samples (trimmed to the speech when VAD is on). */
  samples: Float32Array;
  sampleRate: 16000;
  /** Seconds. */
  duration: number;
  /** The samples as a 16-bit WAV file, ready to post to /v1/audio/transcriptions. */
  file: File;
  /**
   * VAD only: where it heard speech, in seconds of the untrimmed recording, or `null` when it heard
   * none (then `samples` is empty and `file` a WAV header without samples, which
   * /v1/audio/transcriptions refuses as 400 `audio_too_short`). Absent without VAD.
   */
  speech?: SpeechSpan | null;
  /**
   * Seconds of the untrimmed recording. When VAD stopped it, the recording ends at the sample where
   * the VAD decided (`silenceMs` after the speech, or `noSpeechMs`), however late the VAD got there.
   */
  recordedDuration: number;
}

export type RecorderState = 'inactive' | 'recording' | 'paused';

export interface LevelDetail {
  rms: number;
  peak: number;
  /** Seconds recorded at the end of the block (the sample clock; pauses not counted). */
  time: number;
}

/** 'speechstart' and 'speechend': where, on the recording's sample clock. */
export interface SpeechEventDetail {
  /** Seconds into the untrimmed recording: the speech's start (speechstart) or end (speechend). */
  time: number;
  /**
   * `performance.now()` milliseconds at which that sample was captured, by the audio context's clock
   * (not when the event fires: the VAD may run behind the microphone on a busy machine).
   */
  at: number;
}

/** 'pause' (VAD with `pauseMs`): a silence after speech, shorter than the one that stops the recording. */
export interface SpeechPauseDetail extends SpeechEventDetail {
  /** The recording so far, trimmed to the speech as the recording would be if it stopped now. */
  recording: Recording;
  /**
   * Stops the recording as if the full silence had passed ('speechend', then 'stop') once this
   * silence has lasted `afterMs` (default 0: where the VAD has got to), unless speech is heard first
   * (or the recording stopped): then it resolves false and the recording goes on.
   */
  end(afterMs?: number): Promise<boolean>;
}

const RATE = 16000;
const MIC: MediaTrackConstraints = {
  channelCount: 1,
  echoCancellation: false,
  noiseSuppression: false,
  autoGainControl: false,
};

/**
 * Records 16 kHz mono PCM on an AudioWorklet. Events: 'level' (CustomEvent<LevelDetail> per 64 ms
 * block), 'speechstart' and 'speechend' (VAD, CustomEvent<SpeechEventDetail>), 'pause' (VAD with `pauseMs`,
 * CustomEvent<SpeechPauseDetail>), 'nospeech' (VAD: the recording ended with no speech
 * heard, just before its 'stop'), 'stop' (CustomEvent<Recording>, also when VAD stops after a
 * silence or after `noSpeechMs` without speech), 'error' (CustomEvent<Error>: the VAD failed; the
 * recorder stops, `stop()` rejects with the error and no 'stop' follows).
 */
export class Recorder extends EventTarget {
  state: RecorderState = 'inactive';
  private context: AudioContext | undefined;
  private node: AudioWorkletNode | undefined;
  private stream: MediaStream | undefined;
  private blocks: Float32Array[] = [];
  private clock = new SampleClock(RATE);
  /** Where the VAD stopped the recording (a sample index), if it did. */
  private cut: number | undefined;
  private tracker: SpeechTracker | undefined;
  private stopping: Promise<Recording> | undefined;
  private stopped: (() => void) | undefined;

  constructor(private readonly options: RecorderOptions = {}) {
    super();
  }

  async start(): Promise<void> {
    if (this.state !== 'inactive') throw new Error(`The recorder is already ${this.state}.`);
    this.blocks = [];
    this.clock = new SampleClock(RATE);
    this.cut = undefined;
    this.stopping = undefined;
    // The worklet runs before the microphone opens: what the microphone hears from then on is recorded
    // (on a busy machine the worklet's start took longer than the 1 s a speaker may wait before speaking).
    const context = (this.context = new AudioContext({ sampleRate: RATE }));
    let node: AudioWorkletNode;
    try {
      await context.audioWorklet.addModule(workletURL);
      node = this.node = new AudioWorkletNode(context, 'vaani-recorder');
      node.port.onmessage = (event: MessageEvent<RecorderMessage>) => this.receive(event.data);
      node.connect(context.destination);
      void context.resume();
      this.stream = this.options.stream ?? (await navigator.mediaDevices.getUserMedia({ audio: MIC }));
    } catch (error) {
      this.node = this.context = undefined;
      await context.close();
      throw error;
    }
    const vad = this.options.vad;
    const speech = (type: string, sample: number) =>
      this.dispatchEvent(
        new CustomEvent<SpeechEventDetail>(type, {
          detail: { time: sample / RATE, at: this.clock.performanceTime(sample) },
        }),
      );
    this.tracker = vad
      ? new SpeechTracker(vad === true ? {} : vad, {
          speechStart: (sample) => speech('speechstart', sample),
          speechEnd: (sample) => speech('speechend', sample),
          pause: (speechEnd, sample, end) => this.paused(speechEnd, sample, end),
          silence: (sample) => {
            this.cut ??= sample;
            void this.stop();
          },
          error: (error) => {
            this.dispatchEvent(new CustomEvent<Error>('error', { detail: error }));
            void this.stop().catch(() => undefined);
          },
        })
      : undefined;
    context.createMediaStreamSource(this.stream).connect(node);
    await context.resume();
    this.state = 'recording';
  }

  /** Blocks captured before a pause or stop reached the worklet are kept, but raise no level event. */
  private receive(message: RecorderMessage): void {
    if (message.type === 'stopped') {
      this.stopped?.();
      return;
    }
    this.blocks.push(message.samples);
    if (this.context) this.clock.add(message.samples.length, message.time, this.context);
    this.tracker?.push(message.samples);
    if (this.state !== 'recording') return;
    const { rms, peak } = message;
    this.dispatchEvent(new CustomEvent<LevelDetail>('level', { detail: { rms, peak, time: this.clock.seconds } }));
  }

  private paused(speechEnd: number, sample: number, end: (afterMs?: number) => Promise<boolean>): void {
    const tracker = this.tracker!;
    const speech = tracker.spanNow();
    if (!speech) return;
    const recording = this.recordingOf(concat(this.blocks).subarray(0, sample), speech);
    const detail: SpeechPauseDetail = {
      time: speechEnd / RATE,
      at: this.clock.performanceTime(speechEnd),
      recording,
      end,
    };
    this.dispatchEvent(new CustomEvent<SpeechPauseDetail>('pause', { detail }));
  }

  private send(command: RecorderCommand): void {
    this.node?.port.postMessage(command);
  }

  pause(): void {
    if (this.state !== 'recording') return;
    this.send({ type: 'pause' });
    this.state = 'paused';
  }

  resume(): void {
    if (this.state !== 'paused') return;
    this.send({ type: 'resume' });
    this.state = 'recording';
  }

  /** Stops recording and releases the microphone; the recording (the same one on repeated calls). */
  stop(): Promise<Recording> {
    if (this.state === 'inactive' && !this.stopping) return Promise.reject(new Error('The recorder was not started.'));
    this.stopping ??= this.finish();
    return this.stopping;
  }

  private async finish(): Promise<Recording> {
    this.state = 'inactive';
    await new Promise<void>((resolve) => {
      this.stopped = resolve;
      this.send({ type: 'stop' });
    });
    this.node?.disconnect();
    if (!this.options.stream) for (const track of this.stream?.getTracks() ?? []) track.stop();
    await this.context?.close();
    const all = concat(this.blocks).subarray(0, this.cut);
    let speech: SpeechSpan | null = null;
    try {
      if (this.tracker) speech = (await this.tracker.span()) ?? null;
    } finally {
      this.tracker?.dispose();
    }
    const recording = this.recordingOf(all, speech);
    if (this.tracker && !speech) this.dispatchEvent(new Event('nospeech'));
    this.dispatchEvent(new CustomEvent<Recording>('stop', { detail: recording }));
    return recording;
  }

  /** `all` as a recording: trimmed to `speech` with VAD. */
  private recordingOf(all: Float32Array, speech: SpeechSpan | null): Recording {
    const samples = this.tracker ? trim(all, speech, this.tracker.padMs) : all;
    return {
      samples,
      sampleRate: RATE,
      duration: samples.length / RATE,
      file: new File([encodeWav({ samples, sampleRate: RATE })], 'recording.wav', { type: 'audio/wav' }),
      ...(this.tracker && { speech }),
      recordedDuration: all.length / RATE,
    };
  }
}

function concat(blocks: Float32Array[]): Float32Array {
  const out = new Float32Array(blocks.reduce((sum, block) => sum + block.length, 0));
  let offset = 0;
  for (const block of blocks) {
    out.set(block, offset);
    offset += block.length;
  }
  return out;
}

/** The speech span with `padMs` either side; nothing when no speech was heard. */
function trim(samples: Float32Array, speech: SpeechSpan | null, padMs: number): Float32Array {
  if (!speech) return new Float32Array(0);
  const pad = (padMs / 1000) * RATE;
  return samples.slice(
    Math.max(0, Math.round(speech.start * RATE - pad)),
    Math.min(samples.length, Math.round(speech.end * RATE + pad)),
  );
}
