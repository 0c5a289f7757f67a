import type { Ort, OrtSession } from '../../../common/backends/ort';
import type { SymbolTable } from './tokens';

type Tensor = import('onnxruntime-web').Tensor;

/** The four graphs of sherpa-onnx's Moonshine layout. */
export interface MoonshineSessions {
  preprocess: OrtSession;
  encode: OrtSession;
  uncached: OrtSession;
  cached: OrtSession;
}

/** Moonshine's start and end tokens (sherpa-onnx's greedy search: sos 1, eos 2). */
export const SOS = 1;
export const EOS = 2;
/** Audio samples per encoder frame (the Moonshine paper; sherpa-onnx sizes its token limit with it). */
export const SAMPLES_PER_FRAME = 384;
/** At most this many tokens per second of audio (sherpa-onnx's and Moonshine's own limit). */
export const TOKENS_PER_SECOND = 6;

export interface Decoded {
  tokens: number[];
  /** The log-probability of each token. */
  logprobs: number[];
}

/** The greedy pick of the last position's logits: the id with the highest log-softmax, and that log-probability. */
export function greedy(logits: Float32Array): { id: number; logprob: number } {
  const vocab = logits.length;
  let max = -Infinity;
  for (let j = 0; j < vocab; j++) if (logits[j]! > max) max = logits[j]!;
  let sum = 0;
  for (let j = 0; j < vocab; j++) sum += Math.exp(logits[j]! - max);
  const logSum = max + Math.log(sum);
  let id = 0;
  for (let j = 1; j < vocab; j++) if (logits[j]! > logits[id]!) id = j;
  return { id, logprob: logits[id]! - logSum };
}

/**
 * One model in sherpa-onnx's Moonshine layout: preprocess (audio [1, N] → features [1, T, D]),
 * encode (features and their length, int32 [1] → encoder_out), uncached_decode (token int32 [1, 1],
 * encoder_out, length int32 [1] → logits [1, 1, V] and the decoder's states) for the first token
 * and cached_decode (the same plus the states) after. Inputs and outputs are taken by position, as
 * sherpa-onnx does (the exports name them args_0, args_1, …).
 */
export class Moonshine {
  constructor(
    private readonly ort: Ort,
    readonly sessions: MoonshineSessions,
    readonly tokens: SymbolTable,
  ) {}

  /** Runs a graph with inputs by position; `skip`: output positions not to fetch (undefined in the result). */
  private async run(
    session: OrtSession,
    inputs: Tensor[],
    skip?: ReadonlySet<number>,
  ): Promise<(Tensor | undefined)[]> {
    const feeds = Object.fromEntries(session.inputNames.map((name, i) => [name, inputs[i]!]));
    const wanted = skip ? session.outputNames.filter((_, i) => !skip.has(i)) : undefined;
    const out = wanted ? await session.run(feeds, wanted) : await session.run(feeds);
    return session.outputNames.map((name) => out[name]);
  }

  private int32(value: number, dims: number[]): Tensor {
    return new this.ort.Tensor('int32', Int32Array.of(value), dims);
  }

  /** Features and encoder output of 16 kHz samples. */
  async encode(samples: Float32Array): Promise<Tensor> {
    const [features] = await this.run(this.sessions.preprocess, [
      new this.ort.Tensor('float32', samples, [1, samples.length]),
    ]);
    const frames = features!.dims[1]!;
    const [encoded] = await this.run(this.sessions.encode, [features!, this.int32(frames, [1])]);
    features!.dispose();
    return encoded!;
  }

  /**
   * Greedy decoding until eos or the token limit; `signal` is read before each step. A state the
   * cached decoder hands back unchanged (the cross-attention keys and values, found by comparing
   * its first step's outputs with their inputs) is kept and not fetched again: the same inputs and
   * the same tokens, without copying the states over the WASM boundary every step.
   */
  async decode(encoded: Tensor, signal?: AbortSignal): Promise<Decoded> {
    const frames = encoded.dims[1]!;
    const limit = Math.floor(((frames * SAMPLES_PER_FRAME) / 16000) * TOKENS_PER_SECOND);
    const tokens: number[] = [];
    const logprobs: number[] = [];
    let [logits, ...states] = (await this.run(this.sessions.uncached, [
      this.int32(SOS, [1, 1]),
      encoded,
      this.int32(1, [1]),
    ])) as Tensor[];
    /** Output positions (1 + state index) whose value is its input's. */
    let kept: Set<number> | undefined;
    for (let i = 0; i < limit && !signal?.aborted; i++) {
      const { id, logprob } = greedy(logits!.data as Float32Array);
      if (id === EOS) break;
      tokens.push(id);
      logprobs.push(logprob);
      const [nextLogits, ...next] = await this.run(
        this.sessions.cached,
        [this.int32(id, [1, 1]), encoded, this.int32(tokens.length + 1, [1]), ...states],
        kept,
      );
      kept ??= new Set(next.flatMap((state, k) => (state && sameTensor(state, states[k]!) ? [k + 1] : [])));
      logits!.dispose();
      logits = nextLogits!;
      states = states.map((state, k) => {
        const fresh = next[k];
        if (!fresh || fresh === state) return state;
        if (kept!.has(k + 1)) {
          fresh.dispose(); // the first step's copy of a kept state
          return state;
        }
        state.dispose();
        return fresh;
      });
    }
    for (const tensor of [logits!, ...states]) tensor.dispose();
    return { tokens, logprobs };
  }
}

/** Whether two tensors hold the same type, shape and bytes. */
function sameTensor(a: Tensor, b: Tensor): boolean {
  if (a.type !== b.type || a.dims.length !== b.dims.length || a.dims.some((d, i) => d !== b.dims[i])) return false;
  const x = a.data as Float32Array;
  const y = b.data as Float32Array;
  if (x.length !== y.length) return false;
  const bx = new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  const by = new Uint8Array(y.buffer, y.byteOffset, y.byteLength);
  for (let i = 0; i < bx.length; i++) if (bx[i] !== by[i]) return false;
  return true;
}
