import { generate, type GenerationEvents } from '../models/llm/generate';
import { loadLlm, type LoadedLlm } from '../models/llm/load';
import type { ChatOutcome, ChatParams } from '../protocol/chat';
import { cancelToken, exposeEngine } from './expose';
import { modelSlot, type ModelJob } from './model-slot';

export interface LlmJob extends ModelJob {
  params: ChatParams;
}

const load = modelSlot<LoadedLlm>('chat model', loadLlm);

const api = {
  async complete(job: LlmJob, events: GenerationEvents): Promise<ChatOutcome> {
    const token = cancelToken();
    let last: unknown;
    const relay: GenerationEvents = {
      start: (info) => (last = events.start(info)),
      delta: (delta) => (last = events.delta(delta)),
    };
    const outcome = await generate(await load(job), job.params, relay, () => token.cancelled);
    await last;
    return outcome;
  },
};

export type LlmWorkerApi = typeof api;
exposeEngine(api);
