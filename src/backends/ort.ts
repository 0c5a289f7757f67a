import type { RuntimeBackend } from './plan';

export type Ort = typeof import('onnxruntime-web');
export type OrtSession = import('onnxruntime-web').InferenceSession;

/**
 * WASM threads when the page is cross-origin isolated. On the 2-core test machine 1 thread beat 2
 * (see bench/scenarios/chat.ts); more cores get up to 4.
 */
export function wasmThreads(): number {
  if (!globalThis.crossOriginIsolated) return 1;
  const cores = globalThis.navigator?.hardwareConcurrency ?? 1;
  return Math.max(1, Math.min(4, Math.floor(cores / 2)));
}

let loaded: Promise<Ort> | undefined;

/**
 * onnxruntime-web, once per worker: the WebGPU-capable bundle when WebGPU may be tried (it also
 * runs WASM, so a fallback needs no second runtime), else the smaller WASM-only bundle.
 */
export function loadOrt(withWebGpu: boolean): Promise<Ort> {
  loaded ??= (withWebGpu ? import('onnxruntime-web') : import('onnxruntime-web/wasm')).then((ort) => {
    ort.env.wasm.numThreads = wasmThreads();
    return ort as Ort;
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
