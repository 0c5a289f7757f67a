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

/**
 * Picks next tokens from logits with OpenAI's penalties, temperature, top-k and top-p, without
 * sorting the vocabulary: candidates and their weights go into buffers kept across steps, and top-k
 * and the top-p nucleus are found by selection (three-way partitions, expected linear time). The
 * draw walks the kept tokens in the order selection left them: the same distribution as a walk in
 * sorted order, and the same choices for the same seed and logits.
 */
export class Sampler {
  private readonly counts = new Map<number, number>();
  private readonly rng;
  private ids = new Int32Array(0);
  private weights = new Float64Array(0);

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
    if (this.ids.length < logits.length) {
      this.ids = new Int32Array(logits.length);
      this.weights = new Float64Array(logits.length);
    }
    const { ids, weights } = this;
    const best = logits[argmax(logits)]!;
    const floor = best - NEGLIGIBLE * temperature;
    let count = 0;
    let total = 0;
    for (let i = 0; i < logits.length; i++) {
      const logit = logits[i]!;
      if (logit < floor) continue;
      const weight = Math.exp((logit - best) / temperature);
      ids[count] = i;
      weights[count++] = weight;
      total += weight;
    }
    if (top_k && top_k < count) {
      selectHeaviest(ids, weights, count, top_k);
      count = top_k;
      total = 0;
      for (let i = 0; i < count; i++) total += weights[i]!;
    }
    if (top_p < 1) count = nucleus(ids, weights, count, top_p * total);
    let kept = 0;
    for (let i = 0; i < count; i++) kept += weights[i]!;
    let point = uniformFloat64(this.rng) * kept;
    for (let i = 0; i < count; i++) {
      point -= weights[i]!;
      if (point < 0) return ids[i]!;
    }
    return ids[count - 1]!;
  }
}

/**
 * Three-way partition of ids/weights[lo, hi) around `pivot`: heavier first, then equal, then
 * lighter; returns where the equal and the lighter parts start.
 */
function partition(ids: Int32Array, weights: Float64Array, lo: number, hi: number, pivot: number): [number, number] {
  let heavy = lo;
  let i = lo;
  let light = hi;
  const swap = (a: number, b: number) => {
    const id = ids[a]!;
    ids[a] = ids[b]!;
    ids[b] = id;
    const weight = weights[a]!;
    weights[a] = weights[b]!;
    weights[b] = weight;
  };
  while (i < light) {
    const weight = weights[i]!;
    if (weight > pivot) swap(i++, heavy++);
    else if (weight < pivot) swap(i, --light);
    else i++;
  }
  return [heavy, light];
}

/** Moves the k heaviest of the first n entries to the front (in no particular order). */
function selectHeaviest(ids: Int32Array, weights: Float64Array, n: number, k: number): void {
  let lo = 0;
  let hi = n;
  while (hi - lo > 1) {
    const [equal, light] = partition(ids, weights, lo, hi, weights[(lo + hi) >>> 1]!);
    if (k < equal) hi = equal;
    else if (k <= light) return;
    else lo = light;
  }
}

/**
 * Moves to the front the fewest heaviest of the first n entries whose weights add up to at least
 * `mass` (the top-p nucleus, at least one token) and returns how many they are.
 */
function nucleus(ids: Int32Array, weights: Float64Array, n: number, mass: number): number {
  let lo = 0;
  let hi = n;
  let need = mass;
  while (hi - lo > 1) {
    const [equal, light] = partition(ids, weights, lo, hi, weights[(lo + hi) >>> 1]!);
    let heavyMass = 0;
    for (let i = lo; i < equal; i++) heavyMass += weights[i]!;
    if (equal > lo && heavyMass >= need) {
      hi = equal;
      continue;
    }
    need -= heavyMass;
    for (let i = equal; i < light; i++) {
      need -= weights[i]!;
      if (need <= 0) return i + 1;
    }
    lo = light;
  }
  return Math.max(1, need > 0 ? hi : lo);
}

export function argmax(values: Float32Array): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}
