type MemoryApi = { measureUserAgentSpecificMemory?(): Promise<{ bytes: number }> };

/**
 * Bytes the page holds with its same-origin frames and their workers (JS heaps, ArrayBuffers, WASM
 * memories, which only grow: about their peak), after a forced GC when available; undefined where
 * the browser cannot measure (no cross-origin isolation).
 */
export async function heldBytes(): Promise<number | undefined> {
  (globalThis as { gc?(): void }).gc?.();
  return (performance as MemoryApi).measureUserAgentSpecificMemory?.().then(
    (m) => m.bytes,
    () => undefined,
  );
}
