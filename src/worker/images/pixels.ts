import type { GeneratedImage } from './pipeline';
import { invalidInput } from '../../protocol/errors';
import type { ImageFormat } from '../../protocol/images';

const MIME = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

/** One canvas per image size, kept: a fresh OffscreenCanvas and 2D context per image cost more than the PNG encoding of a 64×64 image. */
const canvases = new Map<string, OffscreenCanvasRenderingContext2D>();

/**
 * RGBA pixels encoded by the browser's own encoders (OffscreenCanvas in the worker). The canvas
 * of the image's size is made once and kept (faster per image: docs/performance.md, Images); the
 * pixels are put without a copy.
 */
export async function encodeImage(
  image: GeneratedImage,
  format: ImageFormat,
  compression?: number,
): Promise<Uint8Array> {
  const key = `${image.width}x${image.height}`;
  let context = canvases.get(key);
  if (!context) {
    context = new OffscreenCanvas(image.width, image.height).getContext('2d')!;
    canvases.set(key, context);
  }
  context.putImageData(new ImageData(image.rgba as Uint8ClampedArray<ArrayBuffer>, image.width, image.height), 0, 0);
  const quality = compression === undefined ? undefined : compression / 100;
  const blob = await context.canvas.convertToBlob({ type: MIME[format], quality });
  return new Uint8Array(await blob.arrayBuffer());
}

/**
 * An uploaded png/jpeg/webp as RGBA at the model's size (scaled when it differs); anything the
 * browser cannot decode is a 400 `invalid_image`. A mask must have its image's size.
 */
export async function decodeImage(
  blob: Blob,
  param: 'image' | 'mask',
  width: number,
  height: number,
  imageSource?: { width: number; height: number },
): Promise<GeneratedImage & { source: { width: number; height: number } }> {
  const bitmap = await createImageBitmap(blob, { colorSpaceConversion: 'none', premultiplyAlpha: 'none' }).catch(() => {
    throw invalidInput(`The ${param} is not a PNG, JPEG or WebP image the browser can decode.`, param, 'invalid_image');
  });
  const source = { width: bitmap.width, height: bitmap.height };
  if (imageSource && (source.width !== imageSource.width || source.height !== imageSource.height))
    throw invalidInput(
      `The mask is ${source.width}x${source.height} but the image is ${imageSource.width}x${imageSource.height}: they must be the same size.`,
      'mask',
      'invalid_image',
    );
  const canvas = new OffscreenCanvas(width, height);
  const context = canvas.getContext('2d')!;
  context.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  return { width, height, rgba: context.getImageData(0, 0, width, height).data, source };
}
