import { decodeMono } from '../../common/audio/mono';
import { loadIndicConformer, type StartedIndicConformer } from './indic-conformer/load';
import { transcribeIndic } from './indic-conformer/transcribe';
import {
  MAX_TRANSCRIPTION_SECONDS,
  MIN_TRANSCRIPTION_SECONDS,
  type IndicJob,
  type IndicResult,
  type TranscriptionEvents,
  type IndicConformerWorker,
} from '../../protocol/transcription';
import type { Served } from '../../protocol/worker';
import { blockingRuns, exposeEngine } from '../host/expose';
import { modelSlot } from '../host/model-slot';
import { textEvents } from './text-events';
import { freshSilero } from './silero';

const load = modelSlot<StartedIndicConformer>('IndicConformer speech recognition model', loadIndicConformer);

/** A window's encoder run blocks the worker: 600M real shapes take minutes per window on 2 loaded cores. */
const blocking = blockingRuns(300_000);

const api = {
  async transcribe(signal: AbortSignal, job: IndicJob, events?: TranscriptionEvents): Promise<IndicResult> {
    const { samples } = await decodeMono(job.audio, 16000, {
      maxSeconds: MAX_TRANSCRIPTION_SECONDS,
      minSeconds: MIN_TRANSCRIPTION_SECONDS,
    });
    const started = await load(job);
    const vad = await freshSilero(job.vadURL);
    const speech = await vad.probabilities(samples, { signal });
    const streamed = textEvents(events);
    const transcript = await transcribeIndic(started.model, samples, {
      language: job.language,
      decoding: job.decoding,
      words: job.words,
      speech,
      signal,
      blocking,
      onText: streamed.text,
    });
    await streamed.delivered();
    return { transcript, backend: started.backend, dtype: started.dtype };
  },
} satisfies Served<IndicConformerWorker>;

exposeEngine(api);
