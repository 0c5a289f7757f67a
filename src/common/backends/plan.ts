import type { Backend } from '../../protocol/options';
import { probedWebGpu, type GpuSupport } from './webgpu';

export type RuntimeBackend = 'webgpu' | 'wasm';

/** One attempt at starting a model: a backend and the dtypes to look for, best first. */
export interface BackendAttempt {
  backend: RuntimeBackend;
  dtypes: readonly string[];
}

/** WASM: 8-bit weights are the smallest download that runs fast; fp32 is what tiny exports ship. */
export const WASM_DTYPES = ['q8', 'q4', 'fp32', 'fp16'] as const;
export const WEBGPU_F16_DTYPES = ['q4f16', 'fp16', 'q4', 'fp32'] as const;
export const WEBGPU_F32_DTYPES = ['q4', 'fp32', 'q8'] as const;
/** Dynamically quantised dtypes (MatMulInteger): IndicConformer's worker runs them on WASM only. */
export const QUANTISED_DTYPES: ReadonlySet<string> = new Set(['int8', 'q8', 'uint8']);

/**
 * The attempts for a backend choice, in order: 'auto' tries WebGPU when a hardware adapter exists
 * and falls back to WASM (a software adapter is passed by); a dtype fixed by the model source
 * replaces the per-backend lists.
 */
export function backendAttempts(choice: Backend, gpu: GpuSupport | undefined, dtype?: string): BackendAttempt[] {
  const wasm: BackendAttempt = { backend: 'wasm', dtypes: dtype ? [dtype] : WASM_DTYPES };
  const webgpu: BackendAttempt | undefined = gpu && {
    backend: 'webgpu',
    dtypes: dtype ? [dtype] : gpu.f16 ? WEBGPU_F16_DTYPES : WEBGPU_F32_DTYPES,
  };
  if (choice === 'wasm') return [wasm];
  if (choice === 'webgpu') {
    if (!webgpu) throw new Error("backend 'webgpu' was asked for but this browser has no WebGPU adapter.");
    return [webgpu];
  }
  return webgpu && !gpu?.fallback ? [webgpu, wasm] : [wasm];
}

/**
 * Backends a choice can use in this browser, known without starting anything (for /v1/models):
 * from the adapter `probeWebGpu` found, or from `navigator.gpu` before it has answered.
 */
export function possibleBackends(
  choice: Backend = 'auto',
  gpu: GpuSupport | undefined | 'unknown' = probedWebGpu(),
): RuntimeBackend[] {
  const hasGpu = gpu === 'unknown' ? typeof navigator !== 'undefined' && 'gpu' in navigator : gpu !== undefined;
  if (choice === 'wasm') return ['wasm'];
  if (choice === 'webgpu') return hasGpu ? ['webgpu'] : [];
  return hasGpu && !(gpu !== 'unknown' && gpu?.fallback) ? ['webgpu', 'wasm'] : ['wasm'];
}
