/**
 * Maps sample positions of a recording to the audio context's clock and to `performance.now()`.
 * Each block of samples comes with the context time of its first sample; pauses leave gaps between
 * stretches, so a position is looked up in the stretch that holds it. Times never come from when a
 * block arrives on the page.
 */
export class SampleClock {
  /** Contiguous stretches: the first sample's index and its context time. */
  private readonly stretches: { start: number; time: number }[] = [];
  private total = 0;
  /** The latest pairing of the context's clock with performance.now(). */
  private contextTime = 0;
  private performanceNow = 0;

  constructor(private readonly rate: number) {}

  /** Seconds recorded. */
  get seconds(): number {
    return this.total / this.rate;
  }

  add(length: number, time: number, context: BaseAudioContext & { getOutputTimestamp?(): AudioTimestamp }): void {
    const last = this.stretches.at(-1);
    const expected = last && last.time + (this.total - last.start) / this.rate;
    // A gap of more than half a render quantum starts a new stretch (a pause).
    if (expected === undefined || Math.abs(time - expected) > 64 / this.rate)
      this.stretches.push({ start: this.total, time });
    this.total += length;
    const stamp = context.getOutputTimestamp?.();
    if (stamp?.performanceTime && stamp.contextTime !== undefined) {
      this.contextTime = stamp.contextTime;
      this.performanceNow = stamp.performanceTime;
    } else if (!this.performanceNow) {
      this.contextTime = context.currentTime;
      this.performanceNow = performance.now();
    }
  }

  /** performance.now() milliseconds at which sample `index` was captured, by the context's clock. */
  performanceTime(index: number): number {
    let stretch = this.stretches[0] ?? { start: 0, time: this.contextTime };
    for (const next of this.stretches) if (next.start <= index) stretch = next;
    const time = stretch.time + (index - stretch.start) / this.rate;
    return this.performanceNow + (time - this.contextTime) * 1000;
  }
}
