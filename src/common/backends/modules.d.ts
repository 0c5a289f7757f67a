declare module 'vaani:ort-wasm' {
  /**
   * URLs of onnxruntime-web's gzipped `.wasm` builds in the library build (vite.config.ts); none on dev
   * servers: `webgpu` (the C++ WebGPU EP's asyncify build), `wasm` (WASM only).
   */
  const shipped: { webgpu?: string; wasm?: string };
  export default shipped;
}
