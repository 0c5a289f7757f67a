import { loadMoonshine, type StartedMoonshine } from './moonshine/load';
import { transcribeMoonshine } from './moonshine/transcribe';
import type { MoonshineJob, MoonshineResult, MoonshineWorker, TranscriptionEvents } from '../../protocol/transcription';
import type { Served } from '../../protocol/worker';
import { blockingRuns, exposeEngine } from '../host/expose';
import { modelSlot } from '../host/model-slot';
import { inVadWindows } from './vad-windows';

const load = modelSlot<StartedMoonshine>('compact speech recognition model (Moonshine layout)', loadMoonshine);

const blocking = blockingRuns(60_000);

const api = {
  async transcribe(signal: AbortSignal, job: MoonshineJob, events?: TranscriptionEvents): Promise<MoonshineResult> {
    return inVadWindows(
      signal,
      job,
      events,
      () => load(job),
      async (started, samples, speech, onText) => ({
        transcript: await transcribeMoonshine(started.model, samples, {
          language: job.languageName,
          speech,
          signal,
          blocking,
          onText,
        }),
        backend: started.backend,
      }),
    );
  },
} satisfies Served<MoonshineWorker>;

exposeEngine(api);
