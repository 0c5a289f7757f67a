import * as ortNode from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import type { Ort, OrtSession } from '../../../../src/common/backends/ort';
import { loadDiffusion } from '../../../../src/worker/images/load';
import { tilesFor, UPSCALE_MEMORY, upscalerBytesPerPixel, upscaleTiled } from '../../../../src/worker/images/upscale';
import { directoryLoader } from '../encoder/support';
import { ort as nodeOrt } from './node-ort';
import { ensureTinyDiffusion } from '../../../fixtures/diffusion/ensure';
import { maxAbsDiff } from '../encoder/support';

const ort = ortNode as unknown as Ort;

/** A 40×24 picture with detail everywhere (sizes that are not multiples of the tile). */
function picture() {
  const [width, height] = [40, 24];
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let p = 0; p < width * height; p++) rgba.set([(p * 37) % 256, (p * 11) % 256, (p % width) * 6, 255], p * 4);
  return { width, height, rgba };
}

/** The whole picture through the graph at once, rounded as the runtime rounds. */
async function whole(session: ortNode.InferenceSession, image: ReturnType<typeof picture>) {
  const { width, height, rgba } = image;
  const input = new Float32Array(3 * width * height);
  for (let p = 0; p < width * height; p++)
    for (let c = 0; c < 3; c++) input[c * width * height + p] = rgba[p * 4 + c]! / 255;
  const out = (await session.run({ pixel_values: new ortNode.Tensor('float32', input, [1, 3, height, width]) }))
    .reconstruction!;
  const data = out.data as Float32Array;
  const plane = width * height * 4;
  const result = new Uint8ClampedArray(plane * 4).fill(255);
  for (let p = 0; p < plane; p++)
    for (let c = 0; c < 3; c++) result[p * 4 + c] = Math.round(Math.min(1, Math.max(0, data[c * plane + p]!)) * 255);
  return result;
}

describe('tiled super-resolution', () => {
  it('doubles the size, and 16-pixel tiles with 8 pixels of context equal one pass over the whole image', async () => {
    const session = await ortNode.InferenceSession.create(`${await ensureTinyDiffusion()}/upscaler/model.onnx`);
    const image = picture();
    const tiled = await upscaleTiled(ort, session as unknown as OrtSession, image, { tile: 16, overlap: 8 });
    expect([tiled.width, tiled.height]).toEqual([80, 48]);
    const reference = await whole(session, image);
    expect(maxAbsDiff(tiled.rgba, reference)).toBeLessThanOrEqual(1);
    expect(new Set(tiled.rgba).size).toBeGreaterThan(50);
    // Without context the seams differ: the overlap is what makes tiles exact.
    const seams = await upscaleTiled(ort, session as unknown as OrtSession, image, { tile: 16, overlap: 0 });
    expect(maxAbsDiff(seams.rgba, reference)).toBeGreaterThan(1);
  });

  it('chooses one pass when the image fits the memory budget, and the largest even tiles that fit when not', () => {
    // The fixture's config (8-channel convolutions): 224 B per input pixel, so 512×512 (56 MiB) is one pass.
    const fixture = upscalerBytesPerPixel({ embed_dim: 8, num_heads: [], mlp_ratio: 0, upscale: 2, window_size: 8 });
    expect(fixture).toBe(224);
    expect(tilesFor(512, 512, UPSCALE_MEMORY, fixture)).toEqual({ tile: 512, overlap: 0 });
    // Swin2SR classical ×2 (its defaults): ≈ 5.8 KiB per pixel, so 512×512 is tiled: 3 × 3 tiles of 176 + 2 × 16.
    const swin = upscalerBytesPerPixel();
    expect(swin).toBe(5952);
    const { tile, overlap } = tilesFor(512, 512, UPSCALE_MEMORY, swin);
    expect([tile, overlap]).toEqual([176, 16]);
    expect((tile + 2 * overlap) ** 2 * swin).toBeLessThanOrEqual(UPSCALE_MEMORY);
    expect(Math.ceil(512 / tile)).toBe(3);
    // A budget too small for any tile still runs, in 8-pixel tiles.
    expect(tilesFor(64, 64, 1000, swin)).toEqual({ tile: 8, overlap: 16 });
  });

  it("HD through the pipeline: a small memory budget forces tiles, and they give the one pass's pixels", async () => {
    const dir = await ensureTinyDiffusion();
    const image = await (
      await loadDiffusion(nodeOrt, directoryLoader(dir), 'wasm')
    ).generate({
      prompt: 'a Warli village dance',
      seed: 3,
      steps: 1,
    });
    const onePass = await loadDiffusion(nodeOrt, directoryLoader(dir), 'wasm');
    // 40 × 40 input pixels' worth of the fixture's 224 B: 8-pixel tiles with 16 of context, 64 of them.
    const tight = await loadDiffusion(nodeOrt, directoryLoader(dir), 'wasm', {}, 'resident', 224 * 40 * 40);
    expect(onePass.tiles(64, 64)).toEqual({ tile: 64, overlap: 0 });
    expect(tight.tiles(64, 64)).toEqual({ tile: 8, overlap: 16 });
    const [whole, tiled] = [await onePass.upscale(image), await tight.upscale(image)];
    expect([tiled.width, tiled.height]).toEqual([128, 128]);
    expect(maxAbsDiff(tiled.rgba, whole.rgba)).toBeLessThanOrEqual(1);
    expect(new Set(tiled.rgba).size).toBeGreaterThan(50);
    for (const pipeline of [onePass, tight]) await pipeline.stages.dispose();
  });
});
