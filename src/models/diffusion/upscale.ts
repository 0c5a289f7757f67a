import type { Ort, OrtSession } from '../../backends/ort';
import type { GeneratedImage } from './pipeline';
import { floatFeed, floats } from './tensors';

export interface TileOptions {
  /** Tile side in input pixels (memory grows with its square). */
  tile: number;
  /** Context around each tile, in input pixels; at least the network's receptive field. */
  overlap: number;
}

/** Crops [x0, x1) × [y0, y1) of an RGBA image into [1, 3, h, w] in [0, 1]. */
function crop(image: GeneratedImage, x0: number, y0: number, x1: number, y1: number): Float32Array {
  const [w, h] = [x1 - x0, y1 - y0];
  const out = new Float32Array(3 * w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      for (let c = 0; c < 3; c++)
        out[c * w * h + y * w + x] = image.rgba[((y0 + y) * image.width + x0 + x) * 4 + c]! / 255;
  return out;
}

/**
 * ×scale super-resolution of an RGBA image by tiles (Swin2SR's export: pixel_values in [0, 1] →
 * reconstruction): each tile runs with `overlap` pixels of context, and only its own part of the
 * output is kept, so memory is bounded by the tile size, not the image's.
 */
export async function upscaleTiled(
  ort: Ort,
  session: OrtSession,
  image: GeneratedImage,
  options: TileOptions,
  signal?: AbortSignal,
): Promise<GeneratedImage> {
  const input = session.inputNames[0]!;
  let scale = 0;
  let rgba = new Uint8ClampedArray(0);
  for (let ty = 0; ty < image.height; ty += options.tile)
    for (let tx = 0; tx < image.width; tx += options.tile) {
      signal?.throwIfAborted();
      const [x0, y0] = [Math.max(0, tx - options.overlap), Math.max(0, ty - options.overlap)];
      const x1 = Math.min(image.width, tx + options.tile + options.overlap);
      const y1 = Math.min(image.height, ty + options.tile + options.overlap);
      const dims = [1, 3, y1 - y0, x1 - x0];
      const out = (await session.run({ [input]: floatFeed(ort, session, input, crop(image, x0, y0, x1, y1), dims) }))[
        session.outputNames[0]!
      ]!;
      const [, , oh, ow] = out.dims as number[];
      if (!scale) {
        scale = oh! / (y1 - y0);
        rgba = new Uint8ClampedArray(image.width * scale * image.height * scale * 4).fill(255);
      }
      const data = await floats(out);
      const width = image.width * scale;
      const [keepW, keepH] = [
        Math.min(options.tile, image.width - tx) * scale,
        Math.min(options.tile, image.height - ty) * scale,
      ];
      const [offX, offY] = [(tx - x0) * scale, (ty - y0) * scale];
      for (let y = 0; y < keepH; y++)
        for (let x = 0; x < keepW; x++)
          for (let c = 0; c < 3; c++)
            rgba[((ty * scale + y) * width + tx * scale + x) * 4 + c] = Math.round(
              Math.min(1, Math.max(0, data[c * oh! * ow! + (offY + y) * ow! + offX + x]!)) * 255,
            );
    }
  return { width: image.width * scale, height: image.height * scale, rgba };
}
