import type { AudioResult } from '../../protocol/speech';

/** 16-bit samples appended to one buffer that doubles as it fills (no list of pieces to join). */
export class Pcm16Builder {
  private data: Int16Array<ArrayBuffer> = new Int16Array(1 << 16);
  /** Samples written so far; lowering it drops the tail. */
  length = 0;

  private reserve(extra: number): void {
    if (this.length + extra <= this.data.length) return;
    let size = this.data.length;
    while (size < this.length + extra) size *= 2;
    const grown = new Int16Array(size);
    grown.set(this.data.subarray(0, this.length));
    this.data = grown;
  }

  push(samples: Int16Array): void {
    this.reserve(samples.length);
    this.data.set(samples, this.length);
    this.length += samples.length;
  }

  silence(count: number): void {
    this.reserve(count);
    this.data.fill(0, this.length, this.length + count);
    this.length += count;
  }

  /** The last index at or after `from` whose sample is at least `level` in magnitude, plus one (`from` if none). */
  endAbove(from: number, level: number): number {
    let end = this.length;
    while (end > from && Math.abs(this.data[end - 1]!) < level) end--;
    return end;
  }

  /** The samples written, without copying them. */
  result(): Int16Array<ArrayBuffer> {
    return this.data.subarray(0, this.length);
  }
}

/**
 * Audio an engine made as 16-bit samples: WAV copies them as they are; `samples` (floats in
 * [-1, 1)) is computed only when an encoder asks for it.
 */
export function pcm16Audio(pcm16: Int16Array<ArrayBuffer>, sampleRate: number): AudioResult {
  let samples: Float32Array | undefined;
  return {
    pcm16,
    sampleRate,
    get samples() {
      if (!samples) {
        samples = new Float32Array(pcm16.length);
        for (let i = 0; i < pcm16.length; i++) samples[i] = pcm16[i]! * (1 / 32768);
      }
      return samples;
    },
  };
}
