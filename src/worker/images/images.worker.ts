import * as Comlink from 'comlink';
import { startDiffusion, type StartedDiffusion } from './start';
import type { StageTimings } from './stages';

type Tensor = import('onnxruntime-web').Tensor;
import type { GeneratedImage } from './pipeline';
import type { EditParams, GeneratedImages, ImagesEvents, ImagesJob, ImagesWorker } from '../../protocol/images';
import { invalidInput } from '../../protocol/errors';
import type { Served } from '../../protocol/worker';
import { exposeEngine, reportProgress } from '../host/expose';
import { modelSlot } from '../host/model-slot';
import { decodeImage, encodeImage } from './pixels';

const load = modelSlot<StartedDiffusion, ImagesJob>('image model', (loader, request) =>
  startDiffusion(loader, request),
);

/** The model's image size (doubled for HD); a request's other size is a 400 naming it. */
function modelSize(started: StartedDiffusion, job: ImagesJob) {
  if (job.params.hd && !started.pipeline.canUpscale)
    throw invalidInput(
      "quality 'hd' needs a super-resolution stage (upscaler/model.onnx) in the image model's folder; this one has none.",
      'quality',
      'unsupported_value',
    );
  const [, , h, w] = started.pipeline.latentDims();
  const scale = job.params.hd ? 2 : 1;
  const [width, height] = [w! * 8, h! * 8];
  const size = job.params.size;
  if (size && (size.width !== width * scale || size.height !== height * scale))
    throw invalidInput(
      `This image model makes ${width * scale}x${height * scale} images${job.params.hd ? ' in HD' : ''}: pass size '${width * scale}x${height * scale}' or 'auto'.`,
      'size',
    );
  return { width, height, scale };
}

/**
 * Runs `make` for each of the job's n images (seed + i), with progress, and encodes the results;
 * `timings.worker` is the whole call in the worker from `since` (what the page's time adds to it is
 * the round trip and the route's own work).
 */
async function each(
  signal: AbortSignal,
  since: number,
  job: ImagesJob,
  started: StartedDiffusion,
  events: ImagesEvents | undefined,
  make: (
    seed: number,
    onStep: (step: number, steps: number, latents: Float32Array) => Promise<void>,
    timings: StageTimings,
    context: Tensor,
  ) => Promise<GeneratedImage>,
): Promise<GeneratedImages> {
  const { width, height, scale } = modelSize(started, job);
  const timings: GeneratedImages['timings'] = {};
  const encode = async (image: GeneratedImage, key: 'encode' | 'preview') => {
    const start = performance.now();
    const bytes = await encodeImage(image, job.params.format, job.params.compression);
    timings[key] = (timings[key] ?? 0) + performance.now() - start;
    return bytes;
  };
  // One prompt for all n images: the text encoder runs once.
  const context = await started.pipeline.encodePrompt(job.params.prompt, timings);
  const images: Uint8Array[] = [];
  // Progress events travel on the callback's own port, the result on the engine's: the result must
  // wait for them, or it can overtake them (1 of 8 tiny LCM steps arrived before it) and the page
  // closes the event stream first.
  const delivered: Promise<unknown>[] = [];
  try {
    for (let i = 0; i < job.params.n; i++) {
      let previews = 0;
      const onStep = async (step: number, steps: number, latents: Float32Array) => {
        reportProgress();
        // Previews of intermediate steps only (the last step is the image itself), up to partialImages.
        const wanted = step < steps && previews < (job.params.partialImages ?? 0);
        if (wanted) previews++;
        const preview = wanted ? await encode(await started.pipeline.decode(latents), 'preview') : undefined;
        const sent = events?.progress({ image: i, step, steps, preview });
        // A preview is awaited (at most partialImages per image); a plain progress event is not, so
        // the next step does not wait for the page's round trip.
        if (preview) await sent;
        else delivered.push(Promise.resolve(sent).catch(() => {}));
      };
      let image = await make(job.params.seed + i, onStep, timings, context);
      if (job.params.hd) image = await started.pipeline.upscale(image, signal, timings);
      images.push(await encode(image, 'encode'));
    }
    await Promise.all(delivered);
  } finally {
    if (context.location !== 'cpu') context.dispose();
  }
  timings.worker = performance.now() - since;
  const result = {
    images,
    width: width * scale,
    height: height * scale,
    backend: started.backend,
    sessions: started.pipeline.stages.policy,
    timings,
  };
  return Comlink.transfer(
    result,
    images.map((bytes) => bytes.buffer as ArrayBuffer),
  );
}

const api = {
  async generate(signal: AbortSignal, job: ImagesJob, events?: ImagesEvents): Promise<GeneratedImages> {
    const since = performance.now();
    const started = await load(job);
    return each(signal, since, job, started, events, (seed, onStep, timings, context) =>
      started.pipeline.generate({
        context,
        prompt: job.params.prompt,
        seed,
        steps: job.params.steps ?? started.pipeline.defaultSteps,
        signal,
        onStep,
        timings,
      }),
    );
  },

  async edit(signal: AbortSignal, job: ImagesJob<EditParams>, events?: ImagesEvents): Promise<GeneratedImages> {
    const since = performance.now();
    const started = await load(job);
    const { width, height } = modelSize(started, job);
    const image = await decodeImage(job.params.image, 'image', width, height);
    const mask = job.params.mask && (await decodeImage(job.params.mask, 'mask', width, height, image.source));
    const keep = mask && Uint8Array.from({ length: width * height }, (_, p) => (mask.rgba[p * 4 + 3] === 0 ? 0 : 1));
    return each(signal, since, job, started, events, (seed, onStep, timings, context) =>
      started.pipeline.edit({
        context,
        prompt: job.params.prompt,
        seed,
        image,
        keep,
        strength: job.params.strength,
        signal,
        onStep,
        timings,
      }),
    );
  },
} satisfies Served<ImagesWorker>;

exposeEngine(api);
