import { loadIndicConformer, type StartedIndicConformer } from './indic-conformer/load';
import { transcribeIndic } from './indic-conformer/transcribe';
import type { IndicJob, IndicResult, TranscriptionEvents, IndicConformerWorker } from '../../protocol/transcription';
import type { Served } from '../../protocol/worker';
import { blockingRuns, exposeEngine } from '../host/expose';
import { modelSlot } from '../host/model-slot';
import { inVadWindows } from './vad-windows';

const load = modelSlot<StartedIndicConformer>('IndicConformer speech recognition model', loadIndicConformer);

/** A window's encoder run blocks the worker: 600M real shapes take minutes per window on 2 loaded cores. */
const blocking = blockingRuns(300_000);

const api = {
  async transcribe(signal: AbortSignal, job: IndicJob, events?: TranscriptionEvents): Promise<IndicResult> {
    return inVadWindows(
      signal,
      job,
      events,
      () => load(job),
      async (started, samples, speech, onText) => ({
        transcript: await transcribeIndic(started.model, samples, {
          language: job.language,
          decoding: job.decoding,
          words: job.words,
          speech,
          signal,
          blocking,
          onText,
        }),
        backend: started.backend,
        dtype: started.dtype,
      }),
    );
  },
} satisfies Served<IndicConformerWorker>;

exposeEngine(api);
