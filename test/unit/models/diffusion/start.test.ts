import { describe, expect, it } from 'vitest';
import { startDiffusion, WASM_GRAPH_BUDGET } from '../../../../src/models/diffusion/start';
import type { FileLoader } from '../../../../src/store';

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
});
