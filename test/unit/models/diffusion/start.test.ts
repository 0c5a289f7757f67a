import { describe, expect, it } from 'vitest';
import { sessionPolicy, startDiffusion, WASM_GRAPH_BUDGET } from '../../../../src/worker/images/start';
import type { FileLoader } from '../../../../src/protocol/weights';

/** A loader whose graphs report SD-Turbo-fp16-like sizes without holding them. */
const sized = (bytes: Record<string, number>): FileLoader => ({
  load: async (file) => ({ byteLength: bytes[file.split('/')[0]!] ?? 0 }) as Uint8Array,
  has: async () => true,
});

describe('startDiffusion on WASM', () => {
  it('refuses graphs past the WASM budget before creating a session, naming WebGPU and the remote', async () => {
    const loader = sized({ text_encoder: 681e6, unet: 1.73e9, vae_decoder: 99e6 });
    const failure = startDiffusion(loader, { backend: 'wasm' });
    await expect(failure).rejects.toMatchObject({ kind: 'unavailable', code: 'model_too_large_for_wasm' });
    await expect(failure).rejects.toThrow(/WebGPU.*remote/);
    expect(681e6 + 1.73e9 + 99e6).toBeGreaterThan(WASM_GRAPH_BUDGET);
  });

  it("keeps every session while the graphs fit, and goes stage by stage when only each one does ('auto')", () => {
    const gib = 2 ** 30;
    expect(sessionPolicy('wasm', [0.2 * gib, 0.9 * gib, 0.1 * gib])).toBe('resident');
    expect(sessionPolicy('wasm', [0.5 * gib, 1.2 * gib, 0.1 * gib])).toBe('stagewise');
    // SD-Turbo fp16 on WebGPU: kept on an 8 GiB device, stage by stage on a 4 GiB one.
    const turbo = [681e6, 1.73e9, 99e6];
    expect(sessionPolicy('webgpu', turbo, 8)).toBe('resident');
    expect(sessionPolicy('webgpu', turbo, 4)).toBe('stagewise');
    expect(sessionPolicy('webgpu', turbo, undefined)).toBe('resident');
  });
});
