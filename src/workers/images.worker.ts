import { startDiffusion, type StartedDiffusion } from '../models/diffusion/start';
import type { GeneratedImages, ImageProgress, ImagesJob } from '../protocol/images';
import { invalidInput } from '../protocol/errors';
import { cancelToken, exposeEngine, reportProgress } from './expose';
import { modelSlot } from './model-slot';

const load = modelSlot<StartedDiffusion, ImagesJob>('image model', (loader, request) =>
  startDiffusion(loader, request),
);

const MIME = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;

/** RGBA pixels encoded by the browser's own encoders (OffscreenCanvas in the worker). */
async function encode(rgba: Uint8ClampedArray, width: number, height: number, job: ImagesJob): Promise<Uint8Array> {
  const canvas = new OffscreenCanvas(width, height);
  canvas.getContext('2d')!.putImageData(new ImageData(new Uint8ClampedArray(rgba), width, height), 0, 0);
  const quality = job.params.compression === undefined ? undefined : job.params.compression / 100;
  const blob = await canvas.convertToBlob({ type: MIME[job.params.format], quality });
  return new Uint8Array(await blob.arrayBuffer());
}

const api = {
  async generate(job: ImagesJob, events?: { progress(progress: ImageProgress): void }): Promise<GeneratedImages> {
    const token = cancelToken();
    const { pipeline, backend } = await load(job);
    const [, , h, w] = pipeline.latentDims();
    const width = w! * 8;
    const height = h! * 8;
    const size = job.params.size;
    if (size && (size.width !== width || size.height !== height))
      throw invalidInput(
        `This image model makes ${width}x${height} images: pass size '${width}x${height}' or 'auto'.`,
        'size',
      );
    const images: Uint8Array[] = [];
    for (let i = 0; i < job.params.n; i++) {
      const image = await pipeline.generate({
        prompt: job.params.prompt,
        seed: job.params.seed + i,
        steps: pipeline.defaultSteps,
        signal: token.signal,
        onStep: (step, steps) => {
          reportProgress();
          void events?.progress({ image: i, step, steps });
        },
      });
      images.push(await encode(image.rgba, image.width, image.height, job));
    }
    return { images, width, height, backend };
  },
};

export type ImagesWorkerApi = typeof api;
exposeEngine(api);
