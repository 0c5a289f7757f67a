import { env } from '@huggingface/transformers';

/** transformers.js brings its own onnxruntime-web build; the bench server serves it instead of its CDN. */
const ortDist = '/node_modules/@huggingface/transformers/node_modules/onnxruntime-web/dist/';

/**
 * transformers.js on local files only (`localModelPath` + model name), WASM, with `threads` WASM
 * threads or, when undefined, onnxruntime-web's own default (min(4, ceil(cores / 2))).
 */
export function useLocalTransformers(localModelPath: string, threads: number | undefined): void {
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.useBrowserCache = false;
  env.localModelPath = localModelPath;
  const wasm = env.backends.onnx.wasm!;
  if (threads !== undefined) wasm.numThreads = threads;
  wasm.wasmPaths = {
    mjs: `${ortDist}ort-wasm-simd-threaded.asyncify.mjs`,
    wasm: `${ortDist}ort-wasm-simd-threaded.asyncify.wasm`,
  };
}

/** The thread count onnxruntime-web settled on (it fills in its default when it starts). */
export const transformersThreads = (): number => env.backends.onnx.wasm!.numThreads as number;
