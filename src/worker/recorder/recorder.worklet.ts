/// <reference lib="webworker" />
import type { RecorderCommand, RecorderMessage } from '../../protocol/recorder';

/** What the AudioWorklet global scope offers (not in TypeScript's DOM lib). */
declare abstract class AudioWorkletProcessor {
  readonly port: MessagePort;
  abstract process(
    inputs: Float32Array[][],
    outputs: Float32Array[][],
    parameters: Record<string, Float32Array>,
  ): boolean;
}
declare function registerProcessor(name: string, processor: new () => AudioWorkletProcessor): void;
/** The render quantum's first frame on the context's sample clock, and the context's rate. */
declare const currentFrame: number;
declare const sampleRate: number;

/** Samples per block sent to the page (128-sample render quanta gathered up; 64 ms at 16 kHz). */
const BLOCK = 1024;

/** Gathers the microphone's render quanta into mono blocks and posts them to the page. */
class RecorderProcessor extends AudioWorkletProcessor {
  private block = new Float32Array(BLOCK);
  private filled = 0;
  /** The context's frame of the block's first sample. */
  private blockFrame = 0;
  private paused = false;
  private stopped = false;

  constructor() {
    super();
    this.port.onmessage = (event: MessageEvent<RecorderCommand>) => {
      if (event.data.type === 'pause') this.paused = true;
      else if (event.data.type === 'resume') this.paused = false;
      else this.stop();
    };
  }

  private flush(): void {
    if (this.filled === 0) return;
    const samples = this.block.slice(0, this.filled);
    let sum = 0;
    let peak = 0;
    for (const sample of samples) {
      sum += sample * sample;
      peak = Math.max(peak, Math.abs(sample));
    }
    const message: RecorderMessage = {
      type: 'block',
      samples,
      rms: Math.sqrt(sum / samples.length),
      peak,
      time: this.blockFrame / sampleRate,
    };
    this.port.postMessage(message, [samples.buffer]);
    this.filled = 0;
  }

  private stop(): void {
    this.flush();
    this.stopped = true;
    this.port.postMessage({ type: 'stopped' } satisfies RecorderMessage);
  }

  process(inputs: Float32Array[][]): boolean {
    if (this.stopped) return false;
    const channels = inputs[0] ?? [];
    if (this.paused || channels.length === 0) return true;
    const frames = channels[0]!.length;
    for (let i = 0; i < frames; i++) {
      if (this.filled === 0) this.blockFrame = currentFrame + i;
      let sum = 0;
      for (const channel of channels) sum += channel[i]!;
      this.block[this.filled++] = sum / channels.length;
      if (this.filled === BLOCK) this.flush();
    }
    return true;
  }
}

registerProcessor('vaani-recorder', RecorderProcessor);
