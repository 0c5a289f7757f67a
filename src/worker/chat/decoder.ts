import type { Ort, OrtSession } from '../../common/backends/ort';
import type { RuntimeBackend } from '../../common/backends/plan';
import { stopped } from '../../protocol/cancel';
import type { LlmConfig } from './config';
import { takesChunks } from './graph-ops';
import { lastRow } from './logits';
import { outputPool } from './output-pool';

type Tensor = import('onnxruntime-web').Tensor;

/** The decoder graph's cache and optional inputs, read from the session's input metadata. */
export interface DecoderLayout {
  layers: number;
  kvHeads: number;
  headDim: number;
  cacheType: 'float32' | 'float16';
  positionIds: boolean;
  logitsToKeep: boolean;
  /** A prompt runs in chunks of `prefillChunk` tokens (see takesChunks); else in one run. */
  chunkedPrefill: boolean;
  /** Prompt tokens per prefill run on the session's backend (`PREFILL_CHUNK`). */
  prefillChunk: number;
}

const PAST = /^past_key_values\.(\d+)\.key$/;

/**
 * The layout of a decoder session; `operators` are its graph's (graphOperators), which decide how a
 * prompt is fed; `backend` the session's, which sizes its prefill runs.
 */
export function layoutOf(
  session: OrtSession,
  config: LlmConfig,
  operators: ReadonlySet<string> = new Set(),
  backend: RuntimeBackend = 'wasm',
): DecoderLayout {
  const inputs = session.inputMetadata.filter((input) => input.isTensor);
  const past = inputs.filter((input) => PAST.test(input.name));
  const first = past[0];
  if (!first || !first.isTensor)
    throw new Error('The ONNX graph has no past_key_values.{i}.key inputs: it is not a decoder with a KV cache.');
  const [, heads, , dim] = first.shape;
  const kvHeads = typeof heads === 'number' ? heads : config.kvHeads;
  const headDim = typeof dim === 'number' ? dim : config.headDim;
  if (!kvHeads || !headDim)
    throw new Error('Cannot tell the KV cache shape: the graph leaves it symbolic and config.json does not give it.');
  if (first.type !== 'float32' && first.type !== 'float16') throw new Error(`Unsupported KV cache type ${first.type}.`);
  return {
    layers: past.length,
    kvHeads,
    headDim,
    cacheType: first.type,
    positionIds: inputs.some((input) => input.name === 'position_ids'),
    logitsToKeep: inputs.some((input) => input.name === 'num_logits_to_keep'),
    chunkedPrefill: takesChunks(operators),
    prefillChunk: PREFILL_CHUNK[backend],
  };
}

const int64 = (values: number[]) => BigInt64Array.from(values, BigInt);

/**
 * Prompt tokens per prefill run, by backend. A long prompt runs in chunks over the growing cache (the
 * same result), so between chunks the worker reports progress and a cancel can land: a long prompt in
 * one run can outlast the host's watchdog on a busy machine. By measurement (docs/performance.md): on
 * WASM a chunk's activations stay in onnxruntime's heap, which never shrinks, and smaller chunks
 * prefilled as fast, so 128; on WebGPU each run costs its kernels' dispatch, so 512. A graph that
 * cannot take a chunk beside a past (`chunkedPrefill` false) gets the whole prompt in one run.
 */
export const PREFILL_CHUNK: Readonly<Record<RuntimeBackend, number>> = { wasm: 128, webgpu: 512 };

/** Runs one blocking call of `units` tokens (the worker's `blockingRuns`, which tells the host how long to wait). */
export type BlockingRun = <T>(units: number, run: () => Promise<T>) => Promise<T>;

/**
 * A decoder's cache of past tokens, step by step: `run` appends ids and returns the logits after the
 * last of them, `clear` forgets the cache. It remembers the ids its cache holds, so that a prompt
 * that extends them (`reuse`) runs only the rest. Two kinds: `KvDecoder` (the graph's `present.*` fed
 * back as the next `past_key_values.*`) and `CapturedDecoder` (graph capture on WebGPU, captured.ts).
 */
export abstract class CachedDecoder {
  private past = 0;
  /** The ids the cache was computed from, in order (`past` of them). */
  private held: number[] = [];

  constructor(readonly layout: DecoderLayout) {}

  protected abstract run(ids: number[], past: number): Promise<Float32Array>;
  protected abstract clear(): void;
  /** Frees the sessions (and GPU buffers) behind it. */
  abstract release(): Promise<void>;

  /** Tokens the cache holds. */
  get length(): number {
    return this.past;
  }

  /** Appends `ids` and returns the logits (float32) after the last of them. */
  async step(ids: number[]): Promise<Float32Array> {
    let logits: Float32Array;
    try {
      logits = await this.run(ids, this.past);
    } catch (error) {
      // A run that failed may have left the cache half-written (or its arrays given back): start over.
      this.reset();
      throw error;
    }
    this.past += ids.length;
    this.held.push(...ids);
    return logits;
  }

  /**
   * Appends a prompt in chunks of `prefillChunk` tokens (in one run where the graph takes no
   * chunks) and returns the logits after its last token, or undefined when `signal` was aborted
   * (read between chunks, after a yield that lets the cancel arrive).
   */
  async prefill(
    ids: number[],
    signal?: AbortSignal,
    blocking: BlockingRun = (_, run) => run(),
  ): Promise<Float32Array | undefined> {
    const size = this.layout.chunkedPrefill ? this.layout.prefillChunk : Math.max(1, ids.length);
    for (let at = 0; ; at += size) {
      const chunk = ids.slice(at, at + size);
      const logits = await blocking(chunk.length, () => this.step(chunk));
      if (at + size >= ids.length) return logits;
      if (signal && (await stopped(signal))) return undefined;
    }
  }

  /** Forgets the cache (the next step starts a new sequence). */
  reset(): void {
    this.clear();
    this.past = 0;
    this.held = [];
  }

  /** How many of `ids`' first tokens the cache holds. */
  shared(ids: readonly number[]): number {
    const most = Math.min(this.past, ids.length);
    let kept = 0;
    while (kept < most && this.held[kept] === ids[kept]) kept++;
    return kept;
  }

  /**
   * Keeps the cache when `ids` extends it whole (a prompt's start prefilled ahead of its request, a
   * conversation whose cache holds its last turn to the end) and returns how many tokens that is: the
   * caller prefills `ids.slice(kept)`. Any other prompt starts from an empty cache, so a prompt sent
   * twice gives the same logits both times (a cache cut back runs its last tokens alone, which moves
   * float16 logits by about 1e-2). A graph that takes no chunks beside a past keeps nothing.
   */
  reuse(ids: readonly number[]): number {
    const kept = this.past > 0 && this.past < ids.length && this.shared(ids) === this.past ? this.past : 0;
    if (kept === 0 || (!this.layout.chunkedPrefill && ids.length - kept > 1)) {
      this.reset();
      return 0;
    }
    return kept;
  }
}

/** Runs a decoder step by step, feeding each step's `present.*` back as the next `past_key_values.*`. */
export class KvDecoder extends CachedDecoder {
  private cache: Record<string, Tensor> = {};

  constructor(
    private readonly ort: Ort,
    private readonly session: OrtSession,
    layout: DecoderLayout,
  ) {
    super(layout);
  }

  protected async run(ids: number[], past: number): Promise<Float32Array> {
    const { ort, layout } = this;
    const total = past + ids.length;
    const feeds: Record<string, Tensor> = {
      input_ids: new ort.Tensor('int64', int64(ids), [1, ids.length]),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(total).fill(1n), [1, total]),
      ...this.pastFeeds(past),
    };
    if (layout.positionIds)
      feeds.position_ids = new ort.Tensor('int64', int64(ids.map((_, i) => past + i)), [1, ids.length]);
    if (layout.logitsToKeep) feeds.num_logits_to_keep = new ort.Tensor('int64', new BigInt64Array([1n]), []);
    // onnxruntime copies the inputs into its heap before the graph runs and makes its outputs after:
    // the old cache's arrays can take the new cache, so the worker holds one cache, not two.
    this.recycle();
    const out = await this.session.run(feeds);
    this.drop();
    for (let i = 0; i < layout.layers; i++) {
      this.cache[`past_key_values.${i}.key`] = out[`present.${i}.key`]!;
      this.cache[`past_key_values.${i}.value`] = out[`present.${i}.value`]!;
    }
    const logits = out.logits!;
    const vocab = logits.dims[logits.dims.length - 1]!;
    const data = (await logits.getData()) as ArrayBufferView;
    logits.dispose();
    return lastRow(data, vocab);
  }

  async release(): Promise<void> {
    this.clear();
    await this.session.release();
  }

  private pastFeeds(past: number): Record<string, Tensor> {
    if (past > 0) return this.cache;
    const { ort, layout } = this;
    const empty = () =>
      new ort.Tensor(layout.cacheType, layout.cacheType === 'float16' ? new Uint16Array(0) : new Float32Array(0), [
        1,
        layout.kvHeads,
        0,
        layout.headDim,
      ]);
    const feeds: Record<string, Tensor> = {};
    for (let i = 0; i < layout.layers; i++) {
      feeds[`past_key_values.${i}.key`] = empty();
      feeds[`past_key_values.${i}.value`] = empty();
    }
    return feeds;
  }

  /** Gives the cache's arrays back to the output pool (once they are no longer read). */
  private recycle(): void {
    const pool = outputPool();
    for (const tensor of Object.values(this.cache))
      if (pool && tensor.location === 'cpu' && tensor.type === 'float32') pool.recycle(tensor.data as Float32Array);
  }

  /** Forgets the cache without giving its arrays back (the pool may already have handed them on). */
  private drop(): void {
    for (const tensor of Object.values(this.cache)) tensor.dispose();
    this.cache = {};
  }

  protected clear(): void {
    this.recycle();
    this.drop();
  }
}
