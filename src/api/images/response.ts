import type { GeneratedImages, ImageFormat, ImageParams } from '../../protocol/images';
import { styledPrompt, type StylePreset } from './styles';

const MIME: Record<ImageFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

/**
 * Base64 of encoded image bytes: the engine's `Uint8Array.prototype.toBase64` where it exists
 * (Chromium 140+, Firefox 133+, Safari 18.2+; 0.1 ms for a 128×128 PNG where the string-building
 * fallback took 2–3 ms), else btoa over 32 KiB chunks.
 */
export function base64(bytes: Uint8Array): string {
  const native = (bytes as Uint8Array & { toBase64?: () => string }).toBase64;
  if (typeof native === 'function') return native.call(bytes);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** `auto` or WIDTHxHEIGHT as the engine takes it. */
export const parseSize = (size: string) => {
  if (size === 'auto') return undefined;
  const [width, height] = size.split('x').map(Number) as [number, number];
  return { width, height };
};

export const SIZE_PATTERN = /^(auto|\d{2,4}x\d{2,4})$/;

/** The engine parameters generations and edits share, from their parsed body (the style preset applied to the prompt). */
export const imageParams = (
  body: {
    prompt: string;
    n: number;
    size: string;
    style?: StylePreset;
    output_format: ImageFormat;
    output_compression?: number;
  },
  seed: number,
): ImageParams => ({
  prompt: styledPrompt(body.prompt, body.style),
  n: body.n,
  seed,
  size: parseSize(body.size),
  format: body.output_format,
  compression: body.output_compression,
});

/**
 * The worker's stage timings as a `Server-Timing` header (milliseconds; `sessions` names how the
 * sessions were held, with the time spent creating them when made stage by stage).
 */
export function serverTiming(result: GeneratedImages): string {
  const { sessions: created, ...stages } = result.timings;
  const entries = Object.entries(stages).map(([name, ms]) => `${name};dur=${ms!.toFixed(2)}`);
  const sessions = `sessions;desc="${result.sessions}"${created === undefined ? '' : `;dur=${created.toFixed(2)}`}`;
  return [...entries, sessions].join(', ');
}

/**
 * OpenAI's images response. `url` is a `data:` URL (**Choice**: it works in any context and needs
 * no revoking); the seed used, the backend and the worker's stage timings are headers.
 */
export function imagesResponse(
  result: GeneratedImages,
  body: { response_format: 'url' | 'b64_json'; output_format: ImageFormat; quality?: string },
  seed: number,
  revised?: string,
): Response {
  return Response.json(
    {
      created: Math.floor(Date.now() / 1000),
      data: result.images.map((bytes) => {
        const encoded = base64(bytes);
        const image =
          body.response_format === 'url'
            ? { url: `data:${MIME[body.output_format]};base64,${encoded}` }
            : { b64_json: encoded };
        return revised ? { ...image, revised_prompt: revised } : image;
      }),
      output_format: body.output_format,
      ...(body.quality ? { quality: body.quality } : {}),
      size: `${result.width}x${result.height}`,
    },
    {
      headers: {
        'x-vaani-seed': String(seed),
        'x-vaani-backend': result.backend,
        'server-timing': serverTiming(result),
      },
    },
  );
}

/** The request's seed, or a random one (reported in `x-vaani-seed`). */
export const pickSeed = (seed?: number) => seed ?? crypto.getRandomValues(new Uint32Array(1))[0]!;
