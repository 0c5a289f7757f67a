import type { DeviceFacts, GpuFacts } from './decide';

interface NavigatorFacts {
  deviceMemory?: number;
  connection?: { saveData?: boolean; effectiveType?: string; downlink?: number; type?: string };
  gpu?: {
    requestAdapter(): Promise<{
      features: Set<string>;
      limits: Record<string, number>;
      info?: { isFallbackAdapter?: boolean };
      isFallbackAdapter?: boolean;
    } | null>;
  };
  storage?: { estimate?(): Promise<{ quota?: number; usage?: number }>; persisted?(): Promise<boolean> };
  onLine?: boolean;
}

const GIB = 2 ** 30;

/** One adapter probe per `navigator.gpu` (per page or worker): every request's plan asks for it. */
const probes = new WeakMap<object, Promise<GpuFacts | null>>();

function adapterFacts(nav: NavigatorFacts, probe: boolean): Promise<GpuFacts | null | undefined> {
  const gpu = nav.gpu;
  if (!gpu) return Promise.resolve(undefined);
  let facts = probes.get(gpu);
  if (!facts && !probe) return Promise.resolve(undefined);
  if (!facts) probes.set(gpu, (facts = probeAdapter(gpu)));
  return facts;
}

async function probeAdapter(gpu: NonNullable<NavigatorFacts['gpu']>): Promise<GpuFacts | null> {
  try {
    const adapter = await gpu.requestAdapter();
    if (!adapter) return null;
    return {
      f16: adapter.features.has('shader-f16'),
      fallback: Boolean(adapter.info?.isFallbackAdapter ?? adapter.isFallbackAdapter),
      maxBufferSize: adapter.limits.maxBufferSize ?? 0,
      maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize ?? 0,
    };
  } catch {
    return null;
  }
}

/**
 * What this browser reports of its memory, GPU, storage and network; nothing it lacks is guessed.
 * `probeGpu: false` asks no adapter (a page without one logs a warning for each request) and
 * reports the GPU only where an earlier probe in this realm found it.
 */
export async function deviceFacts({ probeGpu = true }: { probeGpu?: boolean } = {}): Promise<DeviceFacts> {
  const nav = (globalThis.navigator ?? {}) as NavigatorFacts;
  const memory = typeof nav.deviceMemory === 'number' ? nav.deviceMemory * GIB : undefined;
  const connection = nav.connection;
  const [gpu, estimate, persisted] = await Promise.all([
    adapterFacts(nav, probeGpu),
    nav.storage?.estimate?.().catch(() => undefined),
    nav.storage?.persisted?.().catch(() => undefined),
  ]);
  return {
    memory,
    gpu,
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    storage:
      estimate || persisted !== undefined ? { quota: estimate?.quota, usage: estimate?.usage, persisted } : undefined,
    network: connection
      ? {
          saveData: connection.saveData,
          effectiveType: connection.effectiveType,
          downlink: connection.downlink,
          type: connection.type,
        }
      : undefined,
    online: nav.onLine !== false,
  };
}
