import type { GeneratedImages, ImageFormat, ImageParams } from '../../../protocol/images';
import { styledPrompt, type StylePreset } from './_styles';
import { unixSeconds } from '../../../common/ids';

const MIME: Record<ImageFormat, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' };

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

const utf8 = new TextEncoder();
const ALPHABET = utf8.encode('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');

/** Length of the base64 of `n` bytes (padded). */
const base64Length = (n: number) => Math.ceil(n / 3) * 4;

/**
 * Writes the base64 of `bytes` into `out` at `at`, byte by byte: faster in Chromium than the
 * engine's `toBase64` and `encodeInto` of its string (docs/performance.md, Images).
 */
export function base64Into(bytes: Uint8Array, out: Uint8Array, at: number): number {
  const whole = bytes.length - (bytes.length % 3);
  let i = 0;
  for (; i < whole; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[at++] = ALPHABET[v >> 18]!;
    out[at++] = ALPHABET[(v >> 12) & 63]!;
    out[at++] = ALPHABET[(v >> 6) & 63]!;
    out[at++] = ALPHABET[v & 63]!;
  }
  if (i < bytes.length) {
    const two = i + 1 < bytes.length;
    const v = (bytes[i]! << 16) | ((two ? bytes[i + 1]! : 0) << 8);
    out[at++] = ALPHABET[v >> 18]!;
    out[at++] = ALPHABET[(v >> 12) & 63]!;
    out[at++] = two ? ALPHABET[(v >> 6) & 63]! : 61;
    out[at++] = 61;
  }
  return at;
}

/**
 * OpenAI's images response JSON as UTF-8 bytes, written once: every part but the images by
 * `JSON.stringify`, each image's base64 straight into the one buffer (`base64Into`): no JSON string
 * for the browser to encode to UTF-8 again (docs/performance.md, Images).
 */
export function imagesJson(
  images: Uint8Array[],
  fields: { created: number; output_format: ImageFormat; quality?: string; size: string },
  format: 'url' | 'b64_json',
  revised?: string,
): Uint8Array<ArrayBuffer> {
  const open = utf8.encode(format === 'url' ? `{"url":"data:${MIME[fields.output_format]};base64,` : '{"b64_json":"');
  const close = utf8.encode(`"${revised === undefined ? '' : `,"revised_prompt":${JSON.stringify(revised)}`}}`);
  const { created, ...rest } = fields;
  const head = utf8.encode(`{"created":${created},"data":[`);
  const tail = utf8.encode(`],${JSON.stringify(rest).slice(1)}`);
  const length =
    head.length +
    tail.length +
    images.reduce((sum, bytes, i) => sum + (i ? 1 : 0) + open.length + base64Length(bytes.length) + close.length, 0);
  const out = new Uint8Array(length);
  out.set(head);
  let at = head.length;
  images.forEach((bytes, i) => {
    if (i) out[at++] = 44; // ','
    out.set(open, at);
    at = base64Into(bytes, out, at + open.length);
    out.set(close, at);
    at += close.length;
  });
  out.set(tail, at);
  return out;
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
  const fields = {
    created: unixSeconds(),
    output_format: body.output_format,
    ...(body.quality ? { quality: body.quality } : {}),
    size: `${result.width}x${result.height}`,
  };
  return new Response(imagesJson(result.images, fields, body.response_format, revised), {
    headers: {
      'content-type': 'application/json',
      'x-vaani-seed': String(seed),
      'x-vaani-backend': result.backend,
      'server-timing': serverTiming(result),
    },
  });
}

/** The request's seed, or a random one (reported in `x-vaani-seed`). */
export const pickSeed = (seed?: number) => seed ?? crypto.getRandomValues(new Uint32Array(1))[0]!;
