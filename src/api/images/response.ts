import type { GeneratedImages, ImageFormat } from '../../protocol/images';

const MIME: Record<ImageFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

export function base64(bytes: Uint8Array): string {
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
