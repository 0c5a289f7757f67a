declare module 'vaani:ort-wasm' {
  /** URLs of onnxruntime-web's gzipped `.wasm` builds in the library build (vite.config.ts); none on dev servers. */
  const shipped: { webgpu?: string; wasm?: string };
  export default shipped;
}
