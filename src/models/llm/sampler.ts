import { uniformFloat64 } from 'pure-rand/distribution/uniformFloat64';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

export interface SamplingOptions {
  /** 0 picks the most likely token (greedy). */
  temperature: number;
  top_p: number;
  /** 0 or absent: no top-k cut. */
  top_k?: number;
  presence_penalty: number;
  frequency_penalty: number;
  /** Same seed, same choices. Absent: a random seed. */
  seed?: number;
}

/** Below e^-30 of the best token a token's probability is negligible; skipping those keeps sorting cheap. */
const NEGLIGIBLE = 30;

const randomSeed = () => crypto.getRandomValues(new Uint32Array(1))[0]!;

/** Picks next tokens from logits with OpenAI's penalties, temperature, top-k and top-p. */
export class Sampler {
  private readonly counts = new Map<number, number>();
  private readonly rng;

  constructor(private readonly options: SamplingOptions) {
    this.rng = xoroshiro128plus(options.seed ?? randomSeed());
  }

  /** Chooses a token (logits may be changed in place) and remembers it for the penalties. */
  next(logits: Float32Array): number {
    this.penalise(logits);
    const token = this.options.temperature === 0 ? argmax(logits) : this.sample(logits);
    this.counts.set(token, (this.counts.get(token) ?? 0) + 1);
    return token;
  }

  private penalise(logits: Float32Array): void {
    const { presence_penalty: presence, frequency_penalty: frequency } = this.options;
    if (presence === 0 && frequency === 0) return;
    for (const [token, count] of this.counts) logits[token]! -= presence + frequency * count;
  }

  private sample(logits: Float32Array): number {
    const { temperature, top_p, top_k } = this.options;
    const best = logits[argmax(logits)]!;
    const floor = best - NEGLIGIBLE * temperature;
    let candidates: number[] = [];
    for (let i = 0; i < logits.length; i++) if (logits[i]! >= floor) candidates.push(i);
    candidates.sort((a, b) => logits[b]! - logits[a]!);
    if (top_k) candidates = candidates.slice(0, top_k);
    const weights = candidates.map((i) => Math.exp((logits[i]! - best) / temperature));
    const total = weights.reduce((sum, w) => sum + w, 0);
    let kept = candidates.length;
    if (top_p < 1) {
      let mass = 0;
      for (kept = 0; kept < candidates.length && mass < top_p * total; kept++) mass += weights[kept]!;
      kept = Math.max(kept, 1);
    }
    const keptTotal = weights.slice(0, kept).reduce((sum, w) => sum + w, 0);
    let point = uniformFloat64(this.rng) * keptTotal;
    for (let i = 0; i < kept; i++) {
      point -= weights[i]!;
      if (point < 0) return candidates[i]!;
    }
    return candidates[kept - 1]!;
  }
}

export function argmax(values: Float32Array): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}
