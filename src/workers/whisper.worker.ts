import { ApiError } from '../api/errors';
import { decodeMono } from '../audio/mono';
import { toAudioApiError } from '../audio/errors';
import { loadWhisper, type StartedWhisper } from '../models/whisper/load';
import { transcribe, WhisperRequestError } from '../models/whisper/transcribe';
import type { Transcript, TranscriptionParams } from '../protocol/audio';
import { storeLoader } from '../store/store-loader';
import type { StoreOptions } from '../store/types';
import type { Backend } from '../types';
import { exposeEngine } from './expose';

/** Longest audio a transcription accepts, in seconds (the route's 25 MiB upload limit bounds it too). */
export const MAX_TRANSCRIPTION_SECONDS = 10 * 60;

export interface WhisperJob {
  /** The catalogue id, under which the weight store records the files. */
  model: string;
  /** Base URL of the model's files. */
  base: string;
  store?: StoreOptions;
  dtype?: string;
  backend: Backend;
  audio: Uint8Array;
  params: Omit<TranscriptionParams, 'audio'>;
}

/** ApiErrors cross the worker boundary as data (comlink keeps only an Error's message). */
export type WhisperResult =
  | { transcript: Transcript; backend: string; languages: string[] }
  | { error: { status: number; message: string; code: string | null; param: string | null } };

let model: { key: string; ready: Promise<StartedWhisper> } | undefined;
let cancelled = false;

function load(job: WhisperJob): Promise<StartedWhisper> {
  const key = JSON.stringify([job.base, job.dtype, job.backend]);
  if (model?.key !== key) {
    const ready = loadWhisper(storeLoader(job.base, { ...job.store, model: job.model }), { backend: job.backend, dtype: job.dtype }).catch((error: unknown) => {
      model = undefined;
      throw new ApiError(503, `The speech recognition model could not be loaded from ${job.base}: ${error instanceof Error ? error.message : String(error)}`, 'model_unavailable', 'model');
    });
    model = { key, ready };
  }
  return model.ready;
}

function asApiError(error: unknown): ApiError | undefined {
  if (error instanceof WhisperRequestError) return new ApiError(400, error.message, 'unsupported_value', error.param);
  if (error instanceof Error && error.name === 'AudioTooLongError') return new ApiError(413, error.message, 'audio_too_long', 'file');
  const audio = toAudioApiError(error);
  return audio instanceof ApiError ? audio : error instanceof ApiError ? error : undefined;
}

const api = {
  async transcribe(job: WhisperJob): Promise<WhisperResult> {
    cancelled = false;
    try {
      const { samples } = await decodeMono(job.audio, 16000, { maxSeconds: MAX_TRANSCRIPTION_SECONDS });
      const whisper = await load(job);
      const transcript = await transcribe(whisper, samples, { ...job.params, cancelled: () => cancelled });
      return { transcript, backend: whisper.backend, languages: [...whisper.decoder.config.languages.keys()] };
    } catch (error) {
      const apiError = asApiError(error);
      if (!apiError) throw error;
      return { error: { status: apiError.status, message: apiError.message, code: apiError.code, param: apiError.param } };
    }
  },
  /** Stops the running transcription after its current decoder step. */
  cancel(): void {
    cancelled = true;
  },
};

export type WhisperWorkerApi = typeof api;
exposeEngine(api);
