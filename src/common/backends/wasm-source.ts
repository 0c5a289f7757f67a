import type { OrtBuild } from './ort-wasm';

/** A build's WASM ready to start: compiled, or its bytes where the realm may not compile (a page's CSP). */
export type PreparedWasm = WebAssembly.Module | ArrayBuffer;

/**
 * Where an engine worker gets onnxruntime-web's WASM: its page, which prepares each build once for
 * all its workers (src/page/hosts/worker-host.ts answers on the port `EngineControl.runtime` hands
 * over). Undefined: no shipped file (onnxruntime-web loads its own).
 */
export interface WasmSource {
  wasm(build: OrtBuild): Promise<PreparedWasm | undefined>;
}

/** In the global symbol registry: a worker's chunks may evaluate a second copy of this module (src/worker/host/expose.ts). */
const SOURCE = Symbol.for('vaani.wasm-source');
const scope = globalThis as { [SOURCE]?: WasmSource };

/** Makes the worker ask `source` (its page) for the WASM instead of fetching and compiling it itself. */
export function useWasmSource(source: WasmSource): void {
  scope[SOURCE] = source;
}

/** The source `useWasmSource` set, if any. */
export const wasmSource = (): WasmSource | undefined => scope[SOURCE];
