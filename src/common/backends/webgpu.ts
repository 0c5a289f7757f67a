/** What the browser's WebGPU adapter offers the runtimes. */
export interface GpuSupport {
  /** The adapter has `shader-f16`, so fp16 and q4f16 weights can run. */
  f16: boolean;
  /**
   * A software adapter (SwiftShader and the like: `isFallbackAdapter`): WebGPU on the CPU, slower
   * than WASM, so 'auto' passes it by; backend 'webgpu' still runs on it.
   */
  fallback: boolean;
}

interface AdapterFlags {
  info?: { isFallbackAdapter?: boolean };
  isFallbackAdapter?: boolean;
}

let probed: Promise<GpuSupport | undefined> | undefined;
let settled: { gpu: GpuSupport | undefined } | undefined;

/**
 * Asks for a WebGPU adapter once per realm; undefined when there is none (no API, blocked, or no
 * device).
 */
export function probeWebGpu(): Promise<GpuSupport | undefined> {
  probed ??= (async () => {
    const gpu = (globalThis.navigator as Navigator | undefined)?.gpu;
    let support: GpuSupport | undefined;
    try {
      const adapter = gpu ? await gpu.requestAdapter() : null;
      const flags = adapter as (AdapterFlags & GPUAdapter) | null;
      support = flags
        ? {
            f16: flags.features.has('shader-f16'),
            fallback: Boolean(flags.info?.isFallbackAdapter ?? flags.isFallbackAdapter),
          }
        : undefined;
    } catch {
      support = undefined;
    }
    settled = { gpu: support };
    return support;
  })();
  return probed;
}

/** The adapter `probeWebGpu` found, once it has answered; 'unknown' before. */
export function probedWebGpu(): GpuSupport | undefined | 'unknown' {
  return settled ? settled.gpu : 'unknown';
}
