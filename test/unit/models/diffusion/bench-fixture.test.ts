import { describe, expect, it } from 'vitest';
import { loadDiffusion } from '../../../../src/worker/images/load';
import { ensureBench512Diffusion } from '../../../fixtures/diffusion/ensure';
import { directoryLoader } from '../encoder/support';
import { ort } from './node-ort';

describe("the bench's 512×512 diffusers export", () => {
  it('has 64×64×4 latents, so the runtime makes 512×512 images from it, and its VAE decodes to 512×512 pixels', async () => {
    const pipeline = await loadDiffusion(ort, directoryLoader(await ensureBench512Diffusion()), 'wasm');
    expect(pipeline.latentDims()).toEqual([1, 4, 64, 64]);
    const image = await pipeline.decode(new Float32Array(4 * 64 * 64).fill(0.1));
    expect([image.width, image.height, image.rgba.length]).toEqual([512, 512, 512 * 512 * 4]);
    // Random weights, but not a flat image: the decoder's convolutions and attention ran.
    expect(new Set(image.rgba.filter((_, i) => i % 4 === 0)).size).toBeGreaterThan(16);
    await pipeline.stages.dispose();
  }, 60_000);
});
