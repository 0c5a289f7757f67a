/* eslint-disable @typescript-eslint/no-explicit-any -- onnxruntime-web's GPU tensors and its private buffer registrations */
import type { Ort, OrtSession } from '../../common/backends/ort';
import { float16ToFloat32 } from '../../common/float16';
import type { LlmConfig } from './config';
import { CachedDecoder, layoutOf, type DecoderLayout } from './decoder';
import { LENGTH_INPUTS, lengthsAsInputs } from './lengths-as-inputs';
import { LOGITS_TO_KEEP, logitsToKeep } from './logits-to-keep';

type Tensor = import('onnxruntime-web').Tensor;

/** What `startCaptured` needs: the export as loaded, and how many tokens its fixed cache holds. */
export interface CaptureRequest {
  graph: Uint8Array;
  externalData: { path: string; data: Uint8Array }[];
  config: LlmConfig;
  operators: ReadonlySet<string>;
  /** Positions the cache holds: the longest sequence (prompt and answer) this decoder can run. */
  capacity: number;
}

/**
 * onnxruntime-web 1.30's glue binds a captured session's inputs and outputs once, on its first run,
 * by handles it registers for each GPUBuffer per run and frees when a run ends: the first run's
 * handles are freed while the binding still holds them, and the next run fails ("Cannot set
 * properties of undefined (setting 'Symbol(gpuBufferMetadata)')"). While that first run is under
 * way, each buffer's registration (a [handle, count] array the glue keeps on the buffer under a
 * private symbol) is made never to count down to zero, so its handle stays valid for the buffer's
 * life. Throws when the registrations are not found (another glue): the caller decodes uncaptured.
 */
export async function pinRegistrations(buffers: GPUBuffer[], run: Promise<unknown>): Promise<void> {
  let done = false;
  void run.finally(() => (done = true)).catch(() => {});
  for (let i = 0; i < 10_000 && !done; i++) {
    const registered = buffers.filter((b) => Object.getOwnPropertySymbols(b).length > 0);
    if (registered.length === buffers.length) {
      for (const b of registered)
        for (const key of Object.getOwnPropertySymbols(b)) {
          const entry = (b as any)[key];
          if (!Array.isArray(entry) || entry.length !== 2) throw new Error('unknown GPU buffer registrations');
          (b as any)[key] = new Proxy(entry, {
            set: (target, index, value) => {
              (target as any)[index] = index === '1' ? Math.max(1, value) : value;
              return true;
            },
          });
        }
      return;
    }
    await Promise.resolve();
  }
  throw new Error('the first captured run ended before its buffers were registered');
}

/** Runs of the step session at its start: onnxruntime runs a step uncaptured, then records one, then replays. */
const CAPTURE_RUNS = 3;

const bytesOf = (type: string) => (type === 'float16' ? 2 : 4);
const size16 = (bytes: number) => Math.max(16, Math.ceil(bytes / 16) * 16);

/**
 * Graph capture on WebGPU (onnxruntime-web's native EP, `enableGraphCapture`): a decode step is one
 * replay of a recorded step instead of hundreds of kernel launches from the page. It needs every
 * shape and buffer fixed, so the cache holds `capacity` positions that GroupQueryAttention updates
 * in place (past and present bound to one buffer), its lengths come in as inputs
 * (lengths-as-inputs.ts), and the token, lengths and logits live in GPU buffers. A captured session
 * runs one shape only, so a prompt goes through a second, uncaptured session of the same graph into
 * the same cache buffers, in chunks: the weights are on the GPU twice. Fused-GQA exports only
 * (onnxruntime-genai's builder).
 */
export class CapturedDecoder extends CachedDecoder {
  private pinned = false;

  private constructor(
    private readonly ort: Ort,
    private readonly prompt: OrtSession,
    private readonly stepper: OrtSession,
    layout: DecoderLayout,
    readonly capacity: number,
    /** The prompt session takes `num_logits_to_keep` and the step session does not. */
    private readonly promptKeeps: boolean,
    private readonly gpu: {
      device: GPUDevice;
      buffers: GPUBuffer[];
      ids: GPUBuffer;
      mask: GPUBuffer;
      seqlens: GPUBuffer;
      positions?: GPUBuffer;
      logits: GPUBuffer;
      staging: GPUBuffer;
      feeds: Record<string, Tensor>;
      fetches: Record<string, Tensor>;
      vocab: number;
      logitsType: string;
    },
  ) {
    super(layout);
  }

  /** Both sessions and the fixed buffers, or an error saying why this export or runtime cannot be captured. */
  static async start(ort: Ort, request: CaptureRequest): Promise<CapturedDecoder> {
    if (!request.operators.has('com.microsoft:GroupQueryAttention'))
      throw new Error('graph capture needs attention fused into GroupQueryAttention (onnxruntime-genai exports)');
    const graph = lengthsAsInputs(request.graph);
    if (!graph) throw new Error('its GroupQueryAttention nodes do not take their lengths as inputs');
    // Prompts' logits at their last position only (logits-to-keep.ts); steps are one position, and the
    // slice's int64 arithmetic would run on the CPU, where a replayed step has nothing to run it.
    const sliced = logitsToKeep(request.graph);
    const promptGraph = sliced ? lengthsAsInputs(sliced)! : graph;
    const options = {
      // As an object: onnxruntime-web hands `enableGraphCapture` to the native EP only then.
      executionProviders: [{ name: 'webgpu' }],
      externalData: request.externalData,
      graphOptimizationLevel: 'all' as const,
      preferredOutputLocation: 'gpu-buffer' as const,
    };
    const sessions: OrtSession[] = [];
    try {
      const prompt = await ort.InferenceSession.create(promptGraph, options);
      sessions.push(prompt);
      const stepper = await ort.InferenceSession.create(graph, { ...options, enableGraphCapture: true } as any);
      sessions.push(stepper);
      const layout = layoutOf(stepper, request.config, request.operators, 'webgpu');
      const output = prompt.outputMetadata.find((o) => o.name === 'logits');
      const logitsType = output?.isTensor ? output.type : 'float32';
      const device: GPUDevice | undefined = await (ort.env.webgpu as any).device;
      if (!device) throw new Error('onnxruntime-web gave no WebGPU device');
      const { capacity } = request;
      const last = output?.isTensor ? output.shape.at(-1) : undefined;
      const vocab = typeof last === 'number' ? last : request.config.vocabSize;
      if (!vocab) throw new Error('neither the graph nor config.json gives the vocabulary size');
      const usage = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
      const buffers: GPUBuffer[] = [];
      const buffer = (bytes: number) => {
        const b = device.createBuffer({ size: size16(bytes), usage });
        buffers.push(b);
        return b;
      };
      const tensor = (b: GPUBuffer, dataType: string, dims: number[]): Tensor =>
        (ort.Tensor as any).fromGpuBuffer(b, { dataType, dims });
      const ids = buffer(8);
      const mask = buffer(8 * capacity);
      const seqlens = buffer(4);
      const total = buffer(4);
      const logits = buffer(bytesOf(logitsType) * vocab);
      const feeds: Record<string, Tensor> = {
        input_ids: tensor(ids, 'int64', [1, 1]),
        attention_mask: tensor(mask, 'int64', [1, capacity]),
        [LENGTH_INPUTS[0]]: tensor(seqlens, 'int32', [1]),
        [LENGTH_INPUTS[1]]: tensor(total, 'int32', []),
      };
      let positions: GPUBuffer | undefined;
      if (layout.positionIds) {
        positions = buffer(8);
        feeds.position_ids = tensor(positions, 'int64', [1, 1]);
      }
      if (layout.logitsToKeep) {
        const keep = buffer(8);
        device.queue.writeBuffer(keep, 0, new BigInt64Array([1n]));
        feeds.num_logits_to_keep = tensor(keep, 'int64', []);
      }
      const fetches: Record<string, Tensor> = { logits: tensor(logits, logitsType, [1, 1, vocab]) };
      const cacheBytes = bytesOf(layout.cacheType) * layout.kvHeads * capacity * layout.headDim;
      for (let i = 0; i < layout.layers; i++)
        for (const part of ['key', 'value']) {
          const t = tensor(buffer(cacheBytes), layout.cacheType, [1, layout.kvHeads, capacity, layout.headDim]);
          feeds[`past_key_values.${i}.${part}`] = t;
          // The same buffer: GroupQueryAttention writes the new positions in place.
          fetches[`present.${i}.${part}`] = t;
        }
      device.queue.writeBuffer(total, 0, new Int32Array([capacity]));
      const staging = device.createBuffer({
        size: size16(bytesOf(logitsType) * vocab),
        usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
      });
      const decoder = new CapturedDecoder(ort, prompt, stepper, layout, capacity, Boolean(sliced), {
        device,
        buffers,
        ids,
        mask,
        seqlens,
        positions,
        logits,
        staging,
        feeds,
        fetches,
        vocab,
        logitsType,
      });
      await decoder.warmUp();
      return decoder;
    } catch (error) {
      await Promise.all(sessions.map((s) => s.release().catch(() => {})));
      throw error;
    }
  }

  /**
   * Steps until the step is recorded and replayed once, at load: a runtime whose buffers cannot be
   * pinned fails here (and the model decodes uncaptured) rather than in a request, and no request's
   * first token pays for the recording. The position written here is overwritten before it is read.
   */
  private async warmUp(): Promise<void> {
    for (let i = 0; i < CAPTURE_RUNS; i++) await this.run([0], 0);
    this.clear();
  }

  protected async run(ids: number[], past: number): Promise<Float32Array> {
    const { gpu } = this;
    if (past + ids.length > this.capacity)
      throw new Error(`${past + ids.length} tokens exceed the captured cache's ${this.capacity}`);
    const queue = gpu.device.queue;
    if (ids.length === 1) {
      queue.writeBuffer(gpu.ids, 0, new BigInt64Array([BigInt(ids[0]!)]));
      queue.writeBuffer(gpu.mask, 8 * past, new BigInt64Array([1n]));
      queue.writeBuffer(gpu.seqlens, 0, new Int32Array([past]));
      if (gpu.positions) queue.writeBuffer(gpu.positions, 0, new BigInt64Array([BigInt(past)]));
      const run = this.stepper.run(gpu.feeds, gpu.fetches);
      if (!this.pinned) await pinRegistrations(gpu.buffers, run);
      this.pinned = true;
      await run;
      return this.readRow(gpu.logits, 0);
    }
    // A chunk: the step's GPU feeds (cache, mask, lengths) with its own token ids and positions.
    const { ort } = this;
    const n = ids.length;
    queue.writeBuffer(gpu.mask, 8 * past, new BigInt64Array(n).fill(1n));
    queue.writeBuffer(gpu.seqlens, 0, new Int32Array([past + n - 1]));
    const feeds: Record<string, Tensor> = {
      ...gpu.feeds,
      input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, n]),
    };
    if (this.promptKeeps) feeds[LOGITS_TO_KEEP] = new ort.Tensor('int64', new BigInt64Array([1n]), []);
    if (this.layout.positionIds)
      feeds.position_ids = new ort.Tensor(
        'int64',
        BigInt64Array.from(ids, (_, i) => BigInt(past + i)),
        [1, n],
      );
    // The same cache buffers as the step's (present.* bound to past_key_values.*); logits where the runtime puts them.
    const fetches: Record<string, Tensor | null> = { ...gpu.fetches, logits: null };
    const out = await this.prompt.run(feeds, fetches as Record<string, Tensor>);
    const logits = out.logits!;
    try {
      const rows = logits.dims[logits.dims.length - 2] ?? 1;
      return await this.readRow(logits.gpuBuffer as GPUBuffer, (rows - 1) * gpu.vocab * bytesOf(gpu.logitsType));
    } finally {
      logits.dispose();
    }
  }

  /** The vocabulary's row of logits at `offset` in `buffer`, as float32. */
  private async readRow(buffer: GPUBuffer, offset: number): Promise<Float32Array> {
    const { gpu } = this;
    const bytes = Math.min(gpu.staging.size, buffer.size - offset) & ~3;
    const encoder = gpu.device.createCommandEncoder();
    encoder.copyBufferToBuffer(buffer, offset, gpu.staging, 0, bytes);
    gpu.device.queue.submit([encoder.finish()]);
    await gpu.staging.mapAsync(GPUMapMode.READ, 0, bytes);
    try {
      const data = gpu.staging.getMappedRange(0, bytes);
      return gpu.logitsType === 'float16'
        ? float16ToFloat32(new Uint16Array(data, 0, gpu.vocab))
        : new Float32Array(data, 0, gpu.vocab).slice();
    } finally {
      gpu.staging.unmap();
    }
  }

  async release(): Promise<void> {
    await Promise.all([this.prompt.release(), this.stepper.release()]);
    for (const b of [...this.gpu.buffers, this.gpu.staging]) b.destroy();
  }

  protected clear(): void {
    // GroupQueryAttention reads the cache up to `seqlens_k`: old positions are overwritten, not read.
    this.gpu.device.queue.writeBuffer(this.gpu.mask, 0, new BigInt64Array(this.capacity));
  }
}
