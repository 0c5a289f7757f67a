/**
 * Seeded standard-normal noise (mulberry32 + Box–Muller): the same seed gives the same latents on
 * every backend and in every browser, so the same seed gives the same image. The test fixtures'
 * random weights (test/fixtures/whisper/weights.ts) are drawn by this same generator.
 */
export class SeededNoise {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A uniform number in [0, 1) (mulberry32). */
  uniform(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** `size` values from N(0, scale²). */
  normal(size: number, scale = 1): Float32Array {
    const out = new Float32Array(size);
    for (let i = 0; i < size; i++) {
      const radius = Math.sqrt(-2 * Math.log(1 - this.uniform()));
      out[i] = radius * Math.cos(2 * Math.PI * this.uniform()) * scale;
    }
    return out;
  }
}
