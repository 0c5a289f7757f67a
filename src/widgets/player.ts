export interface SpeechQueueHooks {
  /** Sentence `index` starts playing. */
  sentence?(index: number): void;
  /** The first sample of the first sentence goes to the speakers (performance.now() time). */
  firstAudio?(at: number): void;
}

/** How many sentences are synthesised ahead of the one playing. */
const LOOKAHEAD = 2;

/**
 * Plays sentences one after another as soon as each is synthesised, synthesising a couple ahead,
 * so speech starts after the first sentence rather than the whole text. Sentences may be added
 * while it plays (a streaming answer); `end()` says no more will come.
 */
export class SpeechQueue {
  private readonly context = new AudioContext();
  private readonly controller = new AbortController();
  private readonly texts: string[] = [];
  private readonly audio: Promise<ArrayBuffer>[] = [];
  private source: AudioBufferSourceNode | undefined;
  private finishSource: (() => void) | undefined;
  private wake: (() => void) | undefined;
  private ended = false;
  private started = false;
  /** Resolves when every sentence has played (or on stop), rejects when synthesis fails. */
  readonly done: Promise<void>;

  constructor(
    private readonly synthesize: (text: string, signal: AbortSignal) => Promise<ArrayBuffer>,
    private readonly hooks: SpeechQueueHooks = {},
  ) {
    void this.context.resume();
    this.done = this.run().finally(() => void this.context.close().catch(() => undefined));
  }

  get stopped(): boolean {
    return this.controller.signal.aborted;
  }

  add(text: string): void {
    this.texts.push(text);
    this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  pause(): Promise<void> {
    return this.context.suspend();
  }

  resume(): Promise<void> {
    return this.context.resume();
  }

  stop(): void {
    this.controller.abort();
    this.source?.stop();
    this.finishSource?.();
    this.wake?.();
  }

  private request(index: number): void {
    if (index >= this.texts.length || this.audio[index]) return;
    const pending = this.synthesize(this.texts[index]!, this.controller.signal);
    pending.catch(() => undefined);
    this.audio[index] = pending;
  }

  private async run(): Promise<void> {
    for (let index = 0; ; index++) {
      while (index >= this.texts.length && !this.ended && !this.stopped)
        await new Promise<void>((resolve) => (this.wake = resolve));
      if (this.stopped || index >= this.texts.length) return;
      for (let ahead = index; ahead <= index + LOOKAHEAD; ahead++) this.request(ahead);
      let bytes: ArrayBuffer;
      try {
        bytes = await this.audio[index]!;
      } catch (error) {
        if (this.stopped) return;
        throw error;
      }
      if (this.stopped) return;
      const buffer = await this.context.decodeAudioData(bytes);
      if (this.stopped) return;
      this.hooks.sentence?.(index);
      await this.play(buffer);
    }
  }

  private play(buffer: AudioBuffer): Promise<void> {
    return new Promise<void>((resolve) => {
      const source = (this.source = this.context.createBufferSource());
      source.buffer = buffer;
      source.connect(this.context.destination);
      this.finishSource = resolve;
      source.onended = () => resolve();
      source.start();
      if (!this.started) {
        this.started = true;
        this.hooks.firstAudio?.(performance.now() + this.context.baseLatency * 1000);
      }
    });
  }
}
