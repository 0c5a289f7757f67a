import { ApiError } from '../api/errors';
import { toAudioApiError } from '../audio/errors';
import { decodeMono } from '../audio/mono';
import { loadSilero, sileroOnce } from '../audio/silero';
import { loadOrt } from '../backends/ort';
import { loadIndicConformer, type StartedIndicConformer } from '../models/indic-conformer/load';
import { IndicRequestError, transcribeIndic } from '../models/indic-conformer/transcribe';
import { MAX_TRANSCRIPTION_SECONDS, type Transcript } from '../protocol/audio';
import { exposeEngine } from './expose';
import { modelSlot, type ErrorResult, type ModelJob } from './model-slot';

export interface IndicJob extends ModelJob {
  audio: Uint8Array;
  /** URL of the Silero VAD model that cuts the audio into windows. */
  vadURL: string;
  language: string;
  decoding: 'ctc' | 'rnnt';
  words: boolean;
}

export type IndicResult = { transcript: Transcript; backend: string; dtype: string } | ErrorResult;

const load = modelSlot<StartedIndicConformer>('IndicConformer speech recognition model', loadIndicConformer);
const silero = sileroOnce(async (url) => loadSilero(await loadOrt(false), url));
let cancelled = false;

function asApiError(error: unknown): ApiError | undefined {
  if (error instanceof IndicRequestError) return new ApiError(400, error.message, 'unsupported_value', error.param);
  if (error instanceof Error && error.name === 'AudioTooLongError')
    return new ApiError(413, error.message, 'audio_too_long', 'file');
  const audio = toAudioApiError(error);
  return audio instanceof ApiError ? audio : error instanceof ApiError ? error : undefined;
}

const api = {
  async transcribe(job: IndicJob): Promise<IndicResult> {
    cancelled = false;
    try {
      const { samples } = await decodeMono(job.audio, 16000, { maxSeconds: MAX_TRANSCRIPTION_SECONDS });
      const started = await load(job);
      const vad = await silero(job.vadURL).catch((error: unknown) => {
        throw new ApiError(
          503,
          `The Silero VAD model could not be loaded: ${String(error)}`,
          'model_unavailable',
          'model',
        );
      });
      vad.reset();
      const speech = await vad.probabilities(samples, () => cancelled);
      const transcript = await transcribeIndic(started.model, samples, {
        language: job.language,
        decoding: job.decoding,
        words: job.words,
        speech,
        cancelled: () => cancelled,
      });
      return { transcript, backend: started.backend, dtype: started.dtype };
    } catch (error) {
      const apiError = asApiError(error);
      if (!apiError) throw error;
      return {
        error: { status: apiError.status, message: apiError.message, code: apiError.code, param: apiError.param },
      };
    }
  },
  /** Stops the running transcription after its current window (or VAD frame). */
  cancel(): void {
    cancelled = true;
  },
};

export type IndicWorkerApi = typeof api;
exposeEngine(api);
