import shipped from 'vaani:ort-wasm';
import type { Ort } from './ort';
import { wasmSource, type PreparedWasm } from './wasm-source';

/** Which onnxruntime-web build a worker loads: `webgpu` (the C++ WebGPU EP's, which also runs WASM) or `wasm` (WASM only). */
export type OrtBuild = keyof typeof shipped;

const GZIP = [0x1f, 0x8b];

/**
 * The library ships onnxruntime-web's `.wasm` gzipped (vite.config.ts, `ortWasmGzipped`: 10 MB
 * instead of 42). A worker gets the build prepared by its page (or prepares it itself where no page
 * answers) and hands it to onnxruntime-web, which then fetches and compiles nothing. Without a
 * shipped file (dev servers, tests of src/) onnxruntime-web loads its own.
 */
export async function provideWasm(ort: Ort, build: OrtBuild): Promise<void> {
  // Nothing shipped (dev servers, tests of src/): onnxruntime-web loads its own, and a page's
  // source, which has nothing to give either, is not asked.
  if (!shipped[build]) return;
  const source = wasmSource();
  const wasm = source ? await source.wasm(build) : await prepareWasm(build);
  if (wasm instanceof WebAssembly.Module) startFrom(ort, wasm);
  else if (wasm) ort.env.wasm.wasmBinary = wasm;
}

const prepared = new Map<OrtBuild, Promise<PreparedWasm | undefined>>();

/**
 * A build's shipped file fetched, inflated and compiled, once per realm (a failure is not kept:
 * the next call tries again). Where the realm may not compile WASM (a page whose CSP lacks
 * `'wasm-unsafe-eval'`, which its workers' own CSP may allow) it is the bytes, for each worker to compile.
 */
export function prepareWasm(build: OrtBuild): Promise<PreparedWasm | undefined> {
  const url = shipped[build];
  if (!url) return Promise.resolve(undefined);
  let wasm = prepared.get(build);
  if (!wasm) {
    wasm = fetchWasm(url).then((bytes) => WebAssembly.compile(bytes).catch(() => bytes));
    prepared.set(build, wasm);
    wasm.catch(() => prepared.delete(build));
  }
  return wasm;
}

/**
 * onnxruntime-web takes the WASM only as bytes (`env.wasm.wasmBinary`), which its Emscripten glue
 * passes to `WebAssembly.instantiate`. Given a compiled module, the worker (whose globals are
 * Vaani's alone) hands it a stand-in buffer and answers that one instantiation from the module;
 * the glue then passes the module on to its WASM threads as it would its own.
 */
function startFrom(ort: Ort, module: WebAssembly.Module): void {
  const stand = new ArrayBuffer(0);
  const native = WebAssembly.instantiate;
  const instantiate = (source: unknown, imports?: WebAssembly.Imports): Promise<unknown> => {
    if (!(ArrayBuffer.isView(source) && source.buffer === stand))
      return (native as (source: unknown, imports?: WebAssembly.Imports) => Promise<unknown>)(source, imports);
    WebAssembly.instantiate = native;
    return native(module, imports).then((instance) => ({ instance, module }));
  };
  WebAssembly.instantiate = instantiate as typeof WebAssembly.instantiate;
  ort.env.wasm.wasmBinary = stand;
}

/** A `.wasm` file's bytes, inflated when they arrive gzipped. */
export async function fetchWasm(url: string): Promise<ArrayBuffer> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`onnxruntime-web's WASM (${url}) could not be loaded: HTTP ${response.status}.`);
  const bytes = await response.arrayBuffer();
  const head = new Uint8Array(bytes, 0, Math.min(2, bytes.byteLength));
  if (head[0] !== GZIP[0] || head[1] !== GZIP[1]) return bytes;
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
}
