import { ApiError } from '../api/errors';
import { generate, type GenerationEvents } from '../models/llm/generate';
import { loadLlm, type LoadedLlm } from '../models/llm/load';
import type { ChatOutcome, ChatParams } from '../protocol/chat';
import { exposeEngine } from './expose';
import { modelSlot, type ErrorResult, type ModelJob } from './model-slot';

export interface LlmJob extends ModelJob {
  params: ChatParams;
}

export type LlmResult = { outcome: ChatOutcome } | ErrorResult;

const load = modelSlot<LoadedLlm>('chat model', loadLlm);
let cancelled = false;

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
