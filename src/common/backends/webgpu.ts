/** What the browser's WebGPU adapter offers the runtimes. */
export interface GpuSupport {
  /** The adapter has `shader-f16`, so fp16 and q4f16 weights can run. */
  f16: boolean;
}

/** Asks for a WebGPU adapter; undefined when there is none (no API, blocked, or no device). */
export async function probeWebGpu(): Promise<GpuSupport | undefined> {
  const gpu = (globalThis.navigator as Navigator | undefined)?.gpu;
  if (!gpu) return undefined;
  try {
    const adapter = await gpu.requestAdapter();
    return adapter ? { f16: adapter.features.has('shader-f16') } : undefined;
  } catch {
    return undefined;
  }
}
