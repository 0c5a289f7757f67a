import { DELIVER_HEADER } from '../../protocol/images';
import { APIError } from './errors';
import { sseData } from '../../common/sse';

export interface ImageOptions {
  model?: string;
  /** 1–4 images; image i uses seed + i. */
  n?: number;
  size?: string;
  quality?: 'standard' | 'hd' | 'auto';
  style?: 'warli' | 'madhubani' | 'mughal' | 'modern' | 'vivid' | 'natural';
  seed?: number;
  /** Extension (generate only): denoising steps, 1–8; default the scheduler's own. */
  steps?: number;
  output_format?: 'png' | 'jpeg' | 'webp';
  output_compression?: number;
  signal?: AbortSignal;
}

export interface EditOptions extends Omit<ImageOptions, 'steps'> {
  /** Transparent where to edit; the image's size. */
  mask?: Blob;
  /** How far into the noise the image goes, (0, 1]; default 0.8. */
  strength?: number;
}

export interface ImagesResult {
  /** The images, encoded in `output_format`. */
  images: Blob[];
  /** WIDTHxHEIGHT of the images. */
  size: string;
  /** The seed of the first image (image i used seed + i). */
  seed: number;
}

/** `progress` events of `ai.images`: one after every denoising step of every image of a request. */
export interface ImagesProgress {
  /** Which call: 'generation' (`generate`) or 'edit'. */
  kind: 'generation' | 'edit';
  /** The image of the request (0 … n − 1). */
  image: number;
  step: number;
  steps: number;
}

/**
 * `ai.images`: the images routes as methods for apps that want Blobs, not base64. It is an
 * EventTarget: `progress` events (a `CustomEvent<ImagesProgress>`) follow every denoising step,
 * carried by the route's event stream (`stream: true, progress: true`).
 */
export interface ImagesClient extends EventTarget {
  generate(prompt: string, options?: ImageOptions): Promise<ImagesResult>;
  edit(image: Blob, prompt: string, options?: EditOptions): Promise<ImagesResult>;
}

const MIME = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

const blob = (b64: string, type: string) => new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], { type });

/**
 * `deliveries`: this page's handover (Services.deliveries): a request answered locally gives its
 * images to the receiver registered for it, not as base64 in the stream (a remote's still do).
 */
export function imagesClient(
  fetcher: typeof fetch,
  baseURL: string,
  deliveries?: Map<string, (images: Uint8Array[]) => void>,
): ImagesClient {
  const events = new EventTarget();
  let calls = 0;

  /** Posts one streamed request with progress, turns its events into `progress` events and Blobs. */
  async function run(
    kind: ImagesProgress['kind'],
    path: string,
    body: FormData | Record<string, unknown>,
    options: ImageOptions,
  ): Promise<ImagesResult> {
    const form = body instanceof FormData;
    const id = String(++calls);
    let delivered: Uint8Array[] = [];
    deliveries?.set(id, (images) => (delivered = images));
    try {
      return await answer(
        await fetcher(`${baseURL}${path}`, {
          method: 'POST',
          signal: options.signal,
          headers: {
            authorization: 'Bearer local',
            ...(deliveries ? { [DELIVER_HEADER]: id } : {}),
            ...(form ? {} : { 'content-type': 'application/json' }),
          },
          body: form ? body : JSON.stringify(body),
        }),
        kind,
        options,
        (index) => delivered[index]!,
      );
    } finally {
      deliveries?.delete(id);
    }
  }

  /** Reads the route's event stream: progress events re-dispatched, completed images as Blobs. */
  async function answer(
    response: Response,
    kind: ImagesProgress['kind'],
    options: ImageOptions,
    handed: (index: number) => Uint8Array,
  ): Promise<ImagesResult> {
    if (!response.ok) throw await APIError.fromResponse(response);
    const type = MIME[options.output_format ?? 'png'];
    const prefix = kind === 'generation' ? 'image_generation' : 'image_edit';
    const images: Blob[] = [];
    let size = '';
    for await (const data of sseData(response.body!)) {
      const event = JSON.parse(data);
      if (event.error) throw APIError.fromEvent(event);
      if (event.type === `${prefix}.progress`) {
        const detail: ImagesProgress = { kind, image: event.image_index, step: event.step, steps: event.steps };
        events.dispatchEvent(new CustomEvent('progress', { detail }));
      } else if (event.type === `${prefix}.completed`) {
        // Handed over in the page (image_index), or base64 from a remote.
        images.push(
          event.b64_json === undefined
            ? new Blob([handed(event.image_index) as Uint8Array<ArrayBuffer>], { type })
            : blob(event.b64_json, type),
        );
        size = event.size;
      }
    }
    return { images, size, seed: Number(response.headers.get('x-vaani-seed')) };
  }

  const fields = ({ signal: _signal, mask: _mask, ...rest }: EditOptions) => rest;

  return Object.assign(events, {
    generate: (prompt: string, options: ImageOptions = {}) =>
      run('generation', '/images/generations', { ...fields(options), prompt, stream: true, progress: true }, options),
    edit(image: Blob, prompt: string, options: EditOptions = {}) {
      const form = new FormData();
      form.set('image', image);
      if (options.mask) form.set('mask', options.mask);
      form.set('prompt', prompt);
      for (const [name, value] of Object.entries(fields(options)))
        if (value !== undefined) form.set(name, String(value));
      form.set('stream', 'true');
      form.set('progress', 'true');
      return run('edit', '/images/edits', form, options);
    },
  }) as ImagesClient;
}
