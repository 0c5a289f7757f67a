import { ApiError } from '../api/errors';
import { decodeMono } from '../audio/mono';
import { toAudioApiError } from '../audio/errors';
import { loadSilero, sileroOnce } from '../audio/silero';
import { loadOrt } from '../backends/ort';
import { loadWhisper, type StartedWhisper } from '../models/whisper/load';
import { detectLanguage, transcribe, WhisperRequestError } from '../models/whisper/transcribe';
import { MAX_TRANSCRIPTION_SECONDS, type Transcript, type TranscriptionParams } from '../protocol/audio';
import { exposeEngine, reportProgress } from './expose';
import { modelSlot, type ErrorResult, type ModelJob } from './model-slot';

export interface WhisperJob extends ModelJob {
  audio: Uint8Array;
  params: Omit<TranscriptionParams, 'audio'>;
  /** URL of the Silero VAD model, for `params.chunking`. */
  vadURL: string;
}

export type WhisperResult = { transcript: Transcript; backend: string; languages: string[] } | ErrorResult;

const load = modelSlot<StartedWhisper>('speech recognition model', loadWhisper);
const silero = sileroOnce(async (url) => loadSilero(await loadOrt(false), url));
let cancelled = false;

/** Silero's speech probabilities when the request asks for VAD chunking (the worker reports each frame as progress). */
async function speechOf(job: WhisperJob, samples: Float32Array) {
  const { chunking } = job.params;
  if (!chunking) return undefined;
  const vad = await silero(job.vadURL).catch((error: unknown) => {
    throw new ApiError(503, `The Silero VAD model could not be loaded: ${String(error)}`, 'model_unavailable', 'model');
  });
  vad.reset();
  const speech = await vad.probabilities(samples, () => {
    reportProgress();
    return cancelled;
  });
  return { speech, chunking };
}

function asApiError(error: unknown): ApiError | undefined {
  if (error instanceof WhisperRequestError) return new ApiError(400, error.message, 'unsupported_value', error.param);
  if (error instanceof Error && error.name === 'AudioTooLongError')
    return new ApiError(413, error.message, 'audio_too_long', 'file');
  const audio = toAudioApiError(error);
  return audio instanceof ApiError ? audio : error instanceof ApiError ? error : undefined;
}

const api = {
  async transcribe(job: WhisperJob): Promise<WhisperResult> {
    cancelled = false;
    try {
      const { samples } = await decodeMono(job.audio, 16000, { maxSeconds: MAX_TRANSCRIPTION_SECONDS });
      const whisper = await load(job);
      const vad = await speechOf(job, samples);
      const transcript = await transcribe(whisper, samples, {
        ...job.params,
        vad,
        cancelled: () => cancelled,
        progress: reportProgress,
      });
      return { transcript, backend: whisper.backend, languages: [...whisper.decoder.config.languages.keys()] };
    } catch (error) {
      const apiError = asApiError(error);
      if (!apiError) throw error;
      return {
        error: { status: apiError.status, message: apiError.message, code: apiError.code, param: apiError.param },
      };
    }
  },
  /** The language Whisper hears in the first 30 s (its language token after <|startoftranscript|>). */
  async detect(job: Omit<WhisperJob, 'params' | 'vadURL'>): Promise<{ language: string } | ErrorResult> {
    try {
      const { samples } = await decodeMono(job.audio, 16000, { maxSeconds: MAX_TRANSCRIPTION_SECONDS });
      const whisper = await load(job);
      return { language: await detectLanguage(whisper, whisper.mel.extract(samples)) };
    } catch (error) {
      const apiError = asApiError(error);
      if (!apiError) throw error;
      return {
        error: { status: apiError.status, message: apiError.message, code: apiError.code, param: apiError.param },
      };
    }
  },
  /** Stops the running transcription after its current decoder step. */
  cancel(): void {
    cancelled = true;
  },
};

export type WhisperWorkerApi = typeof api;
exposeEngine(api);
