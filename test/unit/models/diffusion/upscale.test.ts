import * as ortNode from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import type { Ort, OrtSession } from '../../../../src/backends/ort';
import { upscaleTiled } from '../../../../src/models/diffusion/upscale';
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
});
