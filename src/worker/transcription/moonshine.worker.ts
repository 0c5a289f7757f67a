import { decodeMono } from '../../common/audio/mono';
import { loadMoonshine, type StartedMoonshine } from './moonshine/load';
import { transcribeMoonshine } from './moonshine/transcribe';
import {
  MAX_TRANSCRIPTION_SECONDS,
  MIN_TRANSCRIPTION_SECONDS,
  type MoonshineJob,
  type MoonshineResult,
  type MoonshineWorker,
  type TranscriptionEvents,
} from '../../protocol/transcription';
import type { Served } from '../../protocol/worker';
import { blockingRuns, exposeEngine } from '../host/expose';
import { modelSlot } from '../host/model-slot';
import { textEvents } from './text-events';
import { freshSilero } from './silero';

const load = modelSlot<StartedMoonshine>('compact speech recognition model (Moonshine layout)', loadMoonshine);

const blocking = blockingRuns(60_000);

const api = {
  async transcribe(signal: AbortSignal, job: MoonshineJob, events?: TranscriptionEvents): Promise<MoonshineResult> {
    const { samples } = await decodeMono(job.audio, 16000, {
      maxSeconds: MAX_TRANSCRIPTION_SECONDS,
      minSeconds: MIN_TRANSCRIPTION_SECONDS,
    });
    const started = await load(job);
    const vad = await freshSilero(job.vadURL);
    const speech = await vad.probabilities(samples, { signal });
    const streamed = textEvents(events);
    const transcript = await transcribeMoonshine(started.model, samples, {
      language: job.languageName,
      speech,
      signal,
      blocking,
      onText: streamed.text,
    });
    await streamed.delivered();
    return { transcript, backend: started.backend };
  },
} satisfies Served<MoonshineWorker>;

exposeEngine(api);
