import type { RuntimeBackend } from './plan';

export type Ort = typeof import('onnxruntime-web');
export type OrtSession = import('onnxruntime-web').InferenceSession;

/**
 * WASM threads: 1 unless the page is cross-origin isolated; then `requested` (a positive integer),
 * else half the cores, rounded up, up to 4 (onnxruntime-web's own default). onnxruntime-web runs
 * every session on one global pool whose threads spin while they wait, and no session option
 * changes that: the other half is left to the page, the browser and the page's other engines.
 */
export function wasmThreads(requested?: number): number {
  if (!globalThis.crossOriginIsolated) return 1;
  if (requested !== undefined && Number.isInteger(requested) && requested > 0) return requested;
  return Math.max(1, Math.min(4, Math.ceil((globalThis.navigator?.hardwareConcurrency ?? 1) / 2)));
}

let loaded: Promise<Ort> | undefined;

/** A terminal's colour codes (ESC [ … m), as onnxruntime's native log lines carry them. */
const COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[\\d;]*m`, 'g');

/**
 * onnxruntime prints its native log lines (an error it also throws, with the node that failed)
 * through the worker's console, coloured for a terminal: a browser console shows the codes raw.
 * In a worker (the library's own), the console drops them; before the runtime binds it.
 */
let plain = false;
function plainConsole(): void {
  if (plain || !('WorkerGlobalScope' in globalThis)) return;
  plain = true;
  for (const level of ['log', 'warn', 'error'] as const) {
    const write = console[level].bind(console);
    console[level] = (...args: unknown[]) =>
      write(...args.map((arg) => (typeof arg === 'string' ? arg.replace(COLOUR, '') : arg)));
  }
}

/**
 * onnxruntime-web, once per worker: a WebGPU-capable bundle when WebGPU may be tried (it also runs
 * WASM, so a fallback needs no second runtime), else the smaller WASM-only bundle. The WebGPU bundle
 * is `onnxruntime-web/webgpu`, the C++ WebGPU execution provider, not the JSEP default: the faster of
 * the two for decoders on a real GPU, and no slower on WASM (docs/performance.md). The thread count
 * of the first call holds for the worker's life.
 */
export function loadOrt(withWebGpu: boolean, threads?: number): Promise<Ort> {
  plainConsole();
  loaded ??= (withWebGpu ? import('onnxruntime-web/webgpu') : import('onnxruntime-web/wasm'))
    .then(async (module) => {
      const ort = module as Ort;
      ort.env.wasm.numThreads = wasmThreads(threads);
      // Imported here: `vaani:ort-wasm` exists only in vite builds, and Node tools import this module too.
      const { provideWasm } = await import('./ort-wasm');
      await provideWasm(ort, withWebGpu ? 'webgpu' : 'wasm');
      return ort;
    })
    .catch((error: unknown) => {
      loaded = undefined; // a failed fetch of the runtime is tried again by the next request
      throw error;
    });
  return loaded;
}

export interface SessionRequest {
  backend: RuntimeBackend;
  graph: Uint8Array;
  externalData: { path: string; data: Uint8Array }[];
}

export async function createSession(ort: Ort, request: SessionRequest): Promise<OrtSession> {
  return ort.InferenceSession.create(request.graph, {
    executionProviders: [request.backend],
    externalData: request.externalData,
    graphOptimizationLevel: 'all',
    // On WebGPU outputs stay on the GPU: the KV cache is fed back without a copy; logits are read out.
    ...(request.backend === 'webgpu' ? { preferredOutputLocation: 'gpu-buffer' as const } : {}),
  });
}
