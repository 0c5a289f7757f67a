import { generate, prefillPrefix } from './generate';
import { loadLlm, type LoadedLlm } from './load';
import { installOutputPool } from './output-pool';
import type { ChatEvents, ChatJob, ChatOutcome, ChatWorker } from '../../protocol/chat';
import type { Served } from '../../protocol/worker';
import { blockingRuns, exposeEngine } from '../host/expose';
import { modelSlot } from '../host/model-slot';

// Before onnxruntime-web loads: its KV cache outputs reuse recycled buffers (src/worker/chat/output-pool.ts).
installOutputPool();

const load = modelSlot<LoadedLlm>('chat model', loadLlm);
/** Each prefill chunk tells the host how long it may block: 5 minutes before any is measured, then 4× the last rate. */
const blocking = blockingRuns(300_000);

const api = {
  async complete(signal: AbortSignal, job: ChatJob, events: ChatEvents): Promise<ChatOutcome> {
    let last: unknown;
    const relay: ChatEvents = {
      onStart: (info) => (last = events.onStart(info)),
      onDelta: (delta) => (last = events.onDelta(delta)),
    };
    const outcome = await generate(await load(job), job.params, relay, signal, blocking);
    await last;
    return outcome;
  },
  async prefill(signal: AbortSignal, job: ChatJob): Promise<number> {
    return prefillPrefix(await load(job), job.params, signal, blocking);
  },
} satisfies Served<ChatWorker>;

exposeEngine(api);
