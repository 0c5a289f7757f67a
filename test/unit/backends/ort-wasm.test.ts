import { afterEach, describe, expect, it } from 'vitest';
import type { Ort } from '../../../src/common/backends/ort';
import { provideWasm } from '../../../src/common/backends/ort-wasm';
import { useWasmSource, wasmSource, type WasmSource } from '../../../src/common/backends/wasm-source';

describe('provideWasm', () => {
  const before = wasmSource();
  afterEach(() => useWasmSource(before as WasmSource));

  it('asks no page source where nothing is shipped (a source left by a closed port never answers)', async () => {
    let asked = 0;
    useWasmSource({ wasm: () => (asked++, new Promise(() => {})) });
    const ort = { env: { wasm: {} } } as unknown as Ort;
    await expect(provideWasm(ort, 'wasm')).resolves.toBeUndefined();
    expect(asked).toBe(0);
    expect(ort.env.wasm.wasmBinary).toBeUndefined();
  });
});
