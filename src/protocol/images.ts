import type { ModelJob } from './jobs';
/** The image types shared by the images routes and the images engine. */

/**
 * The header by which `ai.images` asks for its images handed over in the page (Services.deliveries),
 * not as base64 in the route's stream; never sent to a remote.
 */
export const DELIVER_HEADER = 'x-vaani-deliver';

export type ImageFormat = 'png' | 'jpeg' | 'webp';

export interface ImageParams {
  /** The prompt the model reads (a style preset already applied). */
  prompt: string;
  n: number;
  /** Seed of the first image; image i uses seed + i. */
  seed: number;
  /** The requested size, or undefined for the model's native size. */
  size?: { width: number; height: number };
  format: ImageFormat;
  /** Previews to send while steps run (0–3): the latents after a step, decoded and encoded. */
  partialImages?: number;
  /** Denoising steps (generations, 1–8); absent: the scheduler's default. */
  steps?: number;
  /** HD: ×2 super-resolution after decoding (the export's upscaler/). */
  hd?: boolean;
  /** Encoder quality 0–100 for jpeg/webp. */
  compression?: number;
}

export interface EditParams extends ImageParams {
  /** The image to edit (png, jpeg or webp), scaled to the model's size. */
  image: Blob;
  /** Transparent where to edit, the image's size. */
  mask?: Blob;
  strength: number;
}

export interface ImageProgress {
  image: number;
  step: number;
  steps: number;
  /** A preview of this image so far, encoded in the request's format (streaming's partial images). */
  preview?: Uint8Array;
}

export interface GeneratedImages {
  /** Encoded images in `format`, in order. */
  images: Uint8Array[];
  width: number;
  height: number;
  backend: string;
  /** How the worker held the model's sessions: all kept, or made and released stage by stage. */
  sessions: 'resident' | 'stagewise';
  /**
   * Milliseconds in the worker per stage over the request's images: the graphs (text_encoder,
   * unet, vae_decoder, vae_encoder, upscaler), session creation (`sessions`, stage by stage only),
   * the browser's image encoder (`encode`; `preview` for streamed partial images), and the whole
   * call in the worker (`worker`: the rest of the page's time is the round trip and the route).
   */
  timings: Partial<Record<string, number>>;
}

export interface ImagesEngine {
  generate(
    params: ImageParams,
    signal: AbortSignal,
    onProgress?: (progress: ImageProgress) => void,
  ): Promise<GeneratedImages>;
  edit(
    params: EditParams,
    signal: AbortSignal,
    onProgress?: (progress: ImageProgress) => void,
  ): Promise<GeneratedImages>;
}

export interface ImagesJob<P extends ImageParams = ImageParams> extends ModelJob {
  params: P;
  /** How the worker holds the sessions (the model source's `image.sessions`; default 'auto'). */
  sessions?: 'auto' | 'resident' | 'stagewise';
  /** Bytes the upscaler may take in one pass (the model source's `image.upscaleMemory`). */
  upscaleMemory?: number;
}

/** What an images job reports as it runs, through a comlink proxy. */
export interface ImagesEvents {
  progress(progress: ImageProgress): void;
}

/** The images worker's API (src/worker/images/images.worker.ts satisfies it). */
export interface ImagesWorker {
  generate(job: ImagesJob, events?: ImagesEvents): Promise<GeneratedImages>;
  edit(job: ImagesJob<EditParams>, events?: ImagesEvents): Promise<GeneratedImages>;
}
