import shipped from 'vaani:ort-wasm';
import type { Ort } from './ort';

/** Which onnxruntime-web build a worker loads: with WebGPU (its JSEP build) or WASM only. */
export type OrtBuild = keyof typeof shipped;

const GZIP = [0x1f, 0x8b];

/**
 * The library ships onnxruntime-web's `.wasm` gzipped (vite.config.ts, `ortWasmGzipped`: 10 MB
 * instead of 42). Fetches the build's file, inflates it unless the server already did (a `.gz`
 * sent with `Content-Encoding: gzip` arrives as plain WASM) and hands it to onnxruntime-web, which
 * then fetches nothing. Without a shipped file (dev servers, tests of src/) onnxruntime-web loads
 * its own.
 */
export async function provideWasm(ort: Ort, build: OrtBuild): Promise<void> {
  const url = shipped[build];
  if (url) ort.env.wasm.wasmBinary = await fetchWasm(url);
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
