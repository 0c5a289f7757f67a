type MemoryBreakdown = { bytes: number; breakdown: { bytes: number; attribution: { url: string }[] }[] };

/**
 * Bytes held per worker script, keyed by its file name without extension (`chat.worker`), from
 * measureUserAgentSpecificMemory after a forced GC (WASM heaps never shrink, so a worker's figure is
 * its peak); null where the page cannot measure (not cross-origin isolated).
 */
export async function workerMemory(): Promise<Record<string, number> | null> {
  const measure = (performance as Performance & { measureUserAgentSpecificMemory?: () => Promise<MemoryBreakdown> })
    .measureUserAgentSpecificMemory;
  if (!measure || !crossOriginIsolated) return null;
  (globalThis as { gc?: () => void }).gc?.();
  const result = await measure.call(performance);
  const byWorker: Record<string, number> = {};
  for (const entry of result.breakdown)
    for (const { url } of entry.attribution) {
      const key = new URL(url).pathname
        .split('/')
        .at(-1)!
        .replace(/\.(ts|js)$/, '');
      byWorker[key] = (byWorker[key] ?? 0) + entry.bytes / entry.attribution.length;
    }
  return byWorker;
}
