import { decodeMono } from '../audio/mono';
import { loadIndicConformer, type StartedIndicConformer } from '../models/indic-conformer/load';
import { transcribeIndic } from '../models/indic-conformer/transcribe';
import { MAX_TRANSCRIPTION_SECONDS, type IndicJob, type IndicResult } from '../protocol/audio';
import { cancelToken, exposeEngine } from './expose';
import { modelSlot } from './model-slot';
import { freshSilero } from './silero';

const load = modelSlot<StartedIndicConformer>('IndicConformer speech recognition model', loadIndicConformer);

const api = {
  async transcribe(job: IndicJob): Promise<IndicResult> {
    const token = cancelToken();
    const cancelled = () => token.cancelled;
    const { samples } = await decodeMono(job.audio, 16000, { maxSeconds: MAX_TRANSCRIPTION_SECONDS });
    const started = await load(job);
    const vad = await freshSilero(job.vadURL);
    const speech = await vad.probabilities(samples, cancelled);
    const transcript = await transcribeIndic(started.model, samples, {
      language: job.language,
      decoding: job.decoding,
      words: job.words,
      speech,
      cancelled,
    });
    return { transcript, backend: started.backend, dtype: started.dtype };
  },
};

export type IndicWorkerApi = typeof api;
exposeEngine(api);
