/**
 * The floor for the chat bench: onnxruntime-web driven directly on the same model files and
 * session options as the chat engine — prompts in the same chunks as on WASM, KV cache fed back,
 * argmax only, no tokenizer, no sampling.
 * Messages: { load: BareLoad } → { loaded: true, heapBytes }; { run: BareRun } → BareTiming.
 */
import { PREFILL_CHUNK as CHUNKS } from '../../src/worker/chat/decoder';

type Ort = typeof import('onnxruntime-web');
type Tensor = import('onnxruntime-web').Tensor;

/**
 * onnxruntime-web's builds, all run here on WASM: `wasm` (what a WASM-only worker loads), `jsep`
 * (the JSEP WebGPU build), `native` (the C++ WebGPU EP, asyncify) and `jspi` (the same EP on
 * JavaScript Promise Integration). A worker that may try WebGPU falls back to WASM on its build.
 */
const BUILDS = {
  wasm: () => import('onnxruntime-web/wasm'),
  jsep: () => import('onnxruntime-web'),
  native: () => import('onnxruntime-web/webgpu'),
  jspi: () => import('onnxruntime-web/jspi'),
};
export type BareBuild = keyof typeof BUILDS;

export interface BareLoad {
  base: string;
  graph: string;
  externalData: string[];
  threads: number;
  /** Default `wasm`. */
  build?: BareBuild;
}

export interface BareRun {
  promptTokens: number;
  steps: number;
}

export interface BareTiming {
  prefillMs: number;
  decodeMs: number;
  /** Each decode step's time. */
  stepsMs: number[];
  /** The WASM heap's size after the run. */
  heapBytes: number;
}

/** Prompt tokens per prefill run, as the chat engine runs them on WASM. */
const PREFILL_CHUNK = CHUNKS.wasm;

const bytes = async (url: string) => new Uint8Array(await (await fetch(url)).arrayBuffer());

function argmax(data: Float32Array, from: number): number {
  let best = from;
  for (let i = from + 1; i < data.length; i++) if (data[i]! > data[best]!) best = i;
  return best - from;
}

let ort: Ort;
let session: import('onnxruntime-web').InferenceSession;

/**
 * onnxruntime-web's WASM heap (the threaded build creates it in JS as a shared WebAssembly.Memory):
 * kept to report its size, which only grows, after the session starts and after each run.
 */
let heap: WebAssembly.Memory | undefined;
WebAssembly.Memory = new Proxy(WebAssembly.Memory, {
  construct(target, args: [WebAssembly.MemoryDescriptor]) {
    const memory = Reflect.construct(target, args) as WebAssembly.Memory;
    if (args[0].shared && args[0].maximum) heap = memory;
    return memory;
  },
});
const heapBytes = () => heap?.buffer.byteLength ?? 0;

async function load(request: BareLoad): Promise<void> {
  ort = (await BUILDS[request.build ?? 'wasm']()) as Ort;
  ort.env.wasm.numThreads = request.threads;
  const folder = request.graph.slice(0, request.graph.lastIndexOf('/') + 1);
  session = await ort.InferenceSession.create(await bytes(request.base + request.graph), {
    executionProviders: ['wasm'],
    graphOptimizationLevel: 'all',
    externalData: await Promise.all(
      request.externalData.map(async (file) => ({
        path: file.slice(folder.length),
        data: await bytes(request.base + file),
      })),
    ),
  });
}

async function step(ids: number[], start: number, cache: Record<string, Tensor>) {
  const has = (name: string) => session.inputMetadata.some((m) => m.name === name);
  const total = start + ids.length;
  const feeds: Record<string, Tensor> = {
    input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]),
    attention_mask: new ort.Tensor('int64', new BigInt64Array(total).fill(1n), [1, total]),
    ...cache,
  };
  if (has('position_ids'))
    feeds.position_ids = new ort.Tensor(
      'int64',
      BigInt64Array.from(ids, (_, i) => BigInt(start + i)),
      [1, ids.length],
    );
  if (has('num_logits_to_keep')) feeds.num_logits_to_keep = new ort.Tensor('int64', new BigInt64Array([1n]), []);
  const out = await session.run(feeds);
  const next: Record<string, Tensor> = {};
  for (const name of Object.keys(cache)) next[name] = out[name.replace('past_key_values.', 'present.')]!;
  const logits = out.logits!;
  const data = logits.data as Float32Array;
  return { token: argmax(data, data.length - logits.dims.at(-1)!), cache: next };
}

async function run(request: BareRun): Promise<BareTiming> {
  const empty = Object.fromEntries(
    session.inputMetadata
      .filter((m) => m.name.startsWith('past_key_values.'))
      .map((m) => {
        const [, heads, , dim] = (m as unknown as { shape: number[] }).shape;
        return [m.name, new ort.Tensor('float32', new Float32Array(0), [1, heads!, 0, dim!])];
      }),
  );
  const prompt = Array.from({ length: request.promptTokens }, (_, i) => 100 + ((i * 37) % 1000));
  let start = performance.now();
  let token = 0;
  let cache: Record<string, Tensor> = empty;
  for (let at = 0; at < prompt.length; at += PREFILL_CHUNK)
    ({ token, cache } = await step(prompt.slice(at, at + PREFILL_CHUNK), at, cache));
  const prefillMs = performance.now() - start;
  start = performance.now();
  const stepsMs: number[] = [];
  for (let i = 1; i < request.steps; i++) {
    const at = performance.now();
    ({ token, cache } = await step([token], prompt.length + i - 1, cache));
    stepsMs.push(performance.now() - at);
  }
  return { prefillMs, decodeMs: performance.now() - start, stepsMs, heapBytes: heapBytes() };
}

self.onmessage = async ({ data }: MessageEvent<{ load?: BareLoad; run?: BareRun }>) => {
  try {
    if (data.load) {
      await load(data.load);
      self.postMessage({ loaded: true, heapBytes: heapBytes() });
    } else if (data.run) self.postMessage(await run(data.run));
  } catch (error) {
    self.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};
