import type { Ort, OrtSession } from '../../common/backends/ort';
import { float16ToFloat32 } from '../../common/float16';
import { planBatches, type BatchLimits } from './batches';
import type { EncoderConfig } from './config';
import { normalizeL2 } from '../../common/retrieval/vectors';
import { pool } from './pooling';

type Tensor = import('onnxruntime-web').Tensor;

/** Vectors in input order, and what the runs cost. */
export interface Embedded {
  vectors: Float32Array[];
  /** Real tokens, specials included (the request's usage). */
  tokens: number;
  /** Tokens the runs computed, padding included (bucketing keeps this near `tokens`). */
  paddedTokens: number;
}

const PAST = /^past_key_values\.\d+\.(key|value)$/;

/**
 * Default run limits: 32 rows, 16k padded tokens (memory for long inputs stays bounded), and a run
 * costing as much as 8 padded tokens. Measured on e5-small's shapes (WASM, 2 threads): a run costs
 * about 3.5 ms plus 0.69 ms per token (≈ 5 tokens), and short runs use the cores less well.
 */
export const DEFAULT_LIMITS: BatchLimits = { maxBatch: 32, maxTokens: 16_384, runCost: 8 };

/**
 * Runs a sentence-embedding graph over token sequences: length-bucketed batches, right padding,
 * the inputs the graph declares (`token_type_ids` zeros, `position_ids`, empty `past_key_values`
 * for decoder embedders), then the graph's own `sentence_embedding` or pooling + L2 normalisation.
 * One session run at a time (concurrent runs on one WebGPU session fail).
 */
export class Encoder {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly inputs: Set<string>;

  constructor(
    private readonly ort: Ort,
    private readonly session: OrtSession,
    readonly config: EncoderConfig,
    private readonly padId: number,
    private readonly limits: BatchLimits = DEFAULT_LIMITS,
    private readonly kvShape: { heads?: number; headDim?: number } = {},
  ) {
    this.inputs = new Set(session.inputNames);
    if (!this.inputs.has('input_ids')) throw new Error('The ONNX graph has no input_ids input.');
    const outputs = session.outputNames;
    if (!outputs.includes('sentence_embedding') && !outputs.includes('last_hidden_state'))
      throw new Error(
        `The ONNX graph has neither sentence_embedding nor last_hidden_state (outputs: ${outputs.join(', ')}).`,
      );
  }

  /** Vectors of token sequences, batch by batch; `progress` is called after each batch but the last. */
  embed(sequences: number[][], signal?: AbortSignal, progress?: () => void): Promise<Embedded> {
    const run = this.queue.then(() => this.embedNow(sequences, signal, progress));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async embedNow(sequences: number[][], signal?: AbortSignal, progress?: () => void): Promise<Embedded> {
    const plan = planBatches(
      sequences.map((ids) => ids.length),
      this.limits,
    );
    const vectors: Float32Array[] = new Array(sequences.length);
    for (const [at, batch] of plan.batches.entries()) {
      signal?.throwIfAborted();
      const rows = await this.runBatch(batch.map((index) => sequences[index]!));
      batch.forEach((index, i) => (vectors[index] = rows[i]!));
      // Between batches only: after the last the answer itself follows (a message posted now would
      // wake the page while the answer is on its way; one query's embedding is one batch).
      if (at < plan.batches.length - 1) progress?.();
    }
    return { vectors, tokens: plan.tokens, paddedTokens: plan.paddedTokens };
  }

  private async runBatch(rows: number[][]): Promise<Float32Array[]> {
    const { ort } = this;
    const batch = rows.length;
    const seq = Math.max(...rows.map((row) => row.length));
    // The int64 inputs written in place: no intermediate number arrays to convert.
    const ids = new BigInt64Array(batch * seq).fill(BigInt(this.padId));
    const mask = new BigInt64Array(batch * seq);
    const positions = new BigInt64Array(batch * seq);
    rows.forEach((row, b) =>
      row.forEach((id, s) => {
        ids[b * seq + s] = BigInt(id);
        mask[b * seq + s] = 1n;
        positions[b * seq + s] = BigInt(s);
      }),
    );
    const dims = [batch, seq];
    const feeds: Record<string, Tensor> = { input_ids: new ort.Tensor('int64', ids, dims) };
    if (this.inputs.has('attention_mask')) feeds.attention_mask = new ort.Tensor('int64', mask, dims);
    if (this.inputs.has('token_type_ids'))
      feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(batch * seq), dims);
    if (this.inputs.has('position_ids')) feeds.position_ids = new ort.Tensor('int64', positions, dims);
    for (const meta of this.session.inputMetadata) {
      if (!PAST.test(meta.name)) continue;
      const shape = meta.isTensor ? meta.shape : [];
      const heads = typeof shape[1] === 'number' ? shape[1] : this.kvShape.heads;
      const headDim = typeof shape[3] === 'number' ? shape[3] : this.kvShape.headDim;
      if (!heads || !headDim)
        throw new Error(`Cannot tell the shape of ${meta.name} (config.json has no num_key_value_heads/head_dim).`);
      const type = meta.isTensor && meta.type === 'float16' ? 'float16' : 'float32';
      feeds[meta.name] = new ort.Tensor(type, type === 'float16' ? new Uint16Array(0) : new Float32Array(0), [
        batch,
        heads,
        0,
        headDim,
      ]);
    }
    const wanted = this.session.outputNames.includes('sentence_embedding') ? 'sentence_embedding' : 'last_hidden_state';
    const outputs = await this.session.run(feeds, [wanted]);
    const output = outputs[wanted]!;
    try {
      const data = await floatData(output);
      const vectors =
        wanted === 'sentence_embedding' ? rowsOf(data, batch) : pool(data, output.dims, mask, this.config.pooling);
      return this.config.normalize ? vectors.map(normalizeL2) : vectors;
    } finally {
      for (const tensor of Object.values(outputs)) tensor.dispose();
    }
  }

  release(): Promise<void> {
    return this.session.release();
  }
}

function rowsOf(data: Float32Array, batch: number): Float32Array[] {
  const width = data.length / batch;
  return Array.from({ length: batch }, (_, b) => data.slice(b * width, (b + 1) * width));
}

/** The output as float32 on the CPU (an fp16 graph's output is widened). */
async function floatData(tensor: Tensor): Promise<Float32Array> {
  const data = tensor.location === 'cpu' ? tensor.data : await tensor.getData();
  if (data instanceof Float32Array) return data;
  if (tensor.type === 'float16') return float16ToFloat32(data as Uint16Array);
  throw new Error(`Unsupported embedding output type ${tensor.type}.`);
}
