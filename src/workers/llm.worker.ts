import { ApiError } from '../api/errors';
import { generate, type GenerationEvents } from '../models/llm/generate';
import { loadLlm, type LoadedLlm } from '../models/llm/load';
import type { ChatOutcome, ChatParams } from '../protocol/chat';
import { storeLoader } from '../store/store-loader';
import type { StoreOptions } from '../store/types';
import type { Backend } from '../types';
import { exposeEngine } from './expose';

export interface LlmJob {
  /** Catalogue id, recorded with the cached files. */
  model: string;
  /** Base URL of the model's files. */
  base: string;
  store?: StoreOptions;
  dtype?: string;
  backend: Backend;
  params: ChatParams;
}

/** ApiErrors cross the worker boundary as data (comlink keeps only an Error's message). */
export type LlmResult =
  | { outcome: ChatOutcome }
  | { error: { status: number; message: string; code: string | null; param: string | null } };

let model: { key: string; ready: Promise<LoadedLlm> } | undefined;
let cancelled = false;

function load(job: LlmJob): Promise<LoadedLlm> {
  const key = JSON.stringify([job.base, job.dtype, job.backend]);
  if (model?.key !== key) {
    const ready = loadLlm(storeLoader(job.base, { ...job.store, model: job.model }), { backend: job.backend, dtype: job.dtype }).catch((error: unknown) => {
      model = undefined;
      throw new ApiError(503, `The chat model could not be loaded from ${job.base}: ${error instanceof Error ? error.message : String(error)}`, 'model_unavailable', 'model');
    });
    model = { key, ready };
  }
  return model.ready;
}

const api = {
  async complete(job: LlmJob, events: GenerationEvents): Promise<LlmResult> {
    cancelled = false;
    let last: unknown;
    const relay: GenerationEvents = {
      start: (info) => (last = events.start(info)),
      delta: (delta) => (last = events.delta(delta)),
    };
    try {
      const outcome = await generate(await load(job), job.params, relay, () => cancelled);
      await last;
      return { outcome };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      return { error: { status: error.status, message: error.message, code: error.code, param: error.param } };
    }
  },
  /** Stops the running generation after its current step. */
  cancel(): void {
    cancelled = true;
  },
};

export type LlmWorkerApi = typeof api;
exposeEngine(api);
