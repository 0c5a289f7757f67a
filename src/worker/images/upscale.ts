import type { Ort, OrtSession } from '../../common/backends/ort';
import type { GeneratedImage } from './pipeline';
import { floatFeed, floats } from './tensors';

export interface TileOptions {
  /** Tile side in input pixels (memory grows with its square). */
  tile: number;
  /** Context around each tile, in input pixels; at least the network's receptive field. */
  overlap: number;
}

/**
 * The upscaler's activations may take this many bytes in one pass by default: an image within it
 * runs in one pass, a larger one in tiles that each fit (`models['image-v1'].image.upscaleMemory`).
 */
export const UPSCALE_MEMORY = 256 * 2 ** 20;
/** Context around each tile when an image is tiled, in input pixels (Swin2SR's 8-pixel windows, shifted by 4, twice). */
export const TILE_OVERLAP = 16;

/**
 * Bytes of activations per input pixel of one upscaler pass, estimated from Swin2SR's
 * `config.json` (its defaults where a field is absent: the classical ×2 model): a Swin block holds
 * the token features, their residual and normalised copies and the MLP's hidden layer
 * ((4 + mlp_ratio) × embed_dim floats per pixel), the attention scores of its window (heads ×
 * window² per pixel), and the output grows by upscale² × 3 channels, held twice (float and clamped).
 * An estimate from the architecture (the classical ×2 model: ≈ 5.8 KiB per pixel); for the test
 * fixture, whose config states its plain convolutions (embed_dim 8, no heads, no MLP), 224 B per
 * pixel against ≈ 148 measured at 512×512. Not measured against the real export.
 */
export function upscalerBytesPerPixel(config: Record<string, unknown> = {}): number {
  const number = (key: string, fallback: number) =>
    typeof config[key] === 'number' ? (config[key] as number) : fallback;
  const heads = Array.isArray(config.num_heads) ? Math.max(0, ...(config.num_heads as number[])) : 6;
  const [channels, mlp, window, scale] = [
    number('embed_dim', 180),
    number('mlp_ratio', 2),
    number('window_size', 8),
    number('upscale', 2),
  ];
  return 4 * (channels * (4 + mlp) + heads * window * window + 6 * scale * scale);
}

/**
 * The tiles for a `width` × `height` image within `memory` bytes at `perPixel` bytes per input
 * pixel: one pass (no overlap, nothing computed twice) when the whole image fits, else square
 * tiles whose side with `overlap` pixels of context on each side fits, evened out over the image
 * and a multiple of 8 (at least 8).
 */
export function tilesFor(
  width: number,
  height: number,
  memory: number,
  perPixel: number,
  overlap = TILE_OVERLAP,
): TileOptions {
  const pixels = memory / perPixel;
  if (width * height <= pixels) return { tile: Math.max(width, height), overlap: 0 };
  const largest = Math.max(8, Math.floor((Math.sqrt(pixels) - 2 * overlap) / 8) * 8);
  const across = Math.ceil(Math.max(width, height) / largest);
  return { tile: Math.min(largest, Math.ceil(Math.max(width, height) / across / 8) * 8), overlap };
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
