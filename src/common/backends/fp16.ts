import type { Backend } from '../../protocol/options';
import type { GpuSupport } from './webgpu';

/**
 * Why a source fixed to fp16 weights cannot run here, or undefined when it can: fp16 graphs need a
 * WebGPU adapter with `shader-f16` (ONNX Runtime's WASM backend has few fp16 kernels), so on a
 * WASM-only browser they are refused before any byte is fetched.
 */
export function fp16Refusal(
  dtype: string | undefined,
  choice: Backend,
  gpu: GpuSupport | undefined,
): string | undefined {
  if (dtype !== 'fp16') return undefined;
  if (choice === 'wasm')
    return "its weights are fp16, which needs WebGPU with shader-f16, and backend 'wasm' was chosen.";
  if (!gpu) return 'its weights are fp16, which needs WebGPU with shader-f16, and this browser has no WebGPU adapter.';
  if (gpu.fallback && choice === 'auto')
    return "its weights are fp16, which needs WebGPU with shader-f16, and this browser's only adapter is a software one ('auto' passes it by).";
  if (!gpu.f16)
    return "its weights are fp16, which needs WebGPU with shader-f16, and this browser's adapter lacks shader-f16.";
  return undefined;
}
