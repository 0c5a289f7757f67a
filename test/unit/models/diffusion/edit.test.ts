import { describe, expect, it } from 'vitest';
import { loadDiffusion } from '../../../../src/worker/images/load';
import { ensureTinyDiffusion } from '../../../fixtures/diffusion/ensure';
import { directoryLoader, maxAbsDiff } from '../encoder/support';
import { ort } from './node-ort';

/** A 64×64 gradient to edit. */
const picture = () => {
  const rgba = new Uint8ClampedArray(64 * 64 * 4);
  for (let p = 0; p < 64 * 64; p++) rgba.set([(p % 64) * 4, Math.floor(p / 64) * 4, 128, 255], p * 4);
  return { width: 64, height: 64, rgba };
};

describe('image edits on the tiny export', () => {
  it('keeps every unmasked pixel, redraws the masked half, and repeats for the same seed', async () => {
    const pipeline = await loadDiffusion(ort, directoryLoader(await ensureTinyDiffusion()), 'wasm');
    const image = picture();
    // Keep the left half (columns 0–31), edit the right half.
    const keep = Uint8Array.from({ length: 64 * 64 }, (_, p) => (p % 64 < 32 ? 1 : 0));
    const request = { prompt: 'a Warli peacock', seed: 5, image, keep, strength: 0.8 };
    const edited = await pipeline.edit(request);
    const half = (rgba: Uint8ClampedArray, left: boolean) =>
      rgba.filter((_, i) => Math.floor(i / 4) % 64 < 32 === left);
    expect(maxAbsDiff(half(edited.rgba, true), half(image.rgba, true))).toBe(0);
    expect(maxAbsDiff(half(edited.rgba, false), half(image.rgba, false))).toBeGreaterThan(20);
    expect(maxAbsDiff((await pipeline.edit(request)).rgba, edited.rgba)).toBe(0);
    const whole = await pipeline.edit({ ...request, keep: undefined });
    expect(maxAbsDiff(half(whole.rgba, true), half(image.rgba, true))).toBeGreaterThan(0);
  });
});
