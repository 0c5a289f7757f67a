import * as Comlink from 'comlink';
import { CancelToken } from '../protocol/cancel';
import { PROGRESS_MESSAGE, type BlockingNotice, type EngineControl } from '../protocol/control';
import { registerEngineErrors } from '../protocol/transfer';
import { footprint } from './footprint';

/** Marks an endpoint that already answers; a symbol in the global registry, so every copy of this module sees it. */
const EXPOSED = Symbol.for('vaani.engine-exposed');

let current = new CancelToken();

/** The running job's cancel token: each call into the worker starts a new one. */
export const cancelToken = (): CancelToken => current;

/**
 * Exposes an engine API from inside a worker: EngineErrors cross whole (src/protocol/transfer.ts),
 * each method call starts a fresh CancelToken (the host runs one job at a time), and `ping` and
 * `cancel` and `footprint` are added. Once per endpoint: a worker's lazily loaded chunks (onnxruntime-web,
 * XGrammar) import helpers from the worker's entry, and where the worker was started under another
 * URL (vite's dev server adds `?worker_file`) that import evaluates a second copy of the worker;
 * exposing it too would run every job twice, interleaving the two copies' output.
 */
export function exposeEngine<T extends object>(api: T, endpoint: Comlink.Endpoint = globalThis as never): void {
  const marked = endpoint as Comlink.Endpoint & { [EXPOSED]?: true };
  if (marked[EXPOSED]) return;
  marked[EXPOSED] = true;
  registerEngineErrors();
  const wrapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(api)) {
    wrapped[name] =
      typeof method === 'function'
        ? (...args: unknown[]) => {
            current = new CancelToken();
            return (method as (...a: unknown[]) => unknown).apply(api, args);
          }
        : method;
  }
  const control: EngineControl = { ping: () => true, cancel: () => current.cancel(), footprint };
  Comlink.expose(Object.assign(wrapped, control), endpoint);
}

let lastReport = 0;

/**
 * Tells the host the running job advanced. Posted straight from the worker, so it arrives while a
 * long job keeps the worker's event loop busy (when pings wait); at most every 200 ms.
 */
export function reportProgress(): void {
  const now = Date.now();
  if (now - lastReport < 200) return;
  lastReport = now;
  post(PROGRESS_MESSAGE);
}

const post = (message: string | BlockingNotice) =>
  (globalThis as unknown as { postMessage(message: unknown): void }).postMessage(message);

/**
 * Wraps long calls that block the worker's event loop (no ping can be answered meanwhile): each
 * announces how long it may take — `firstMs` before anything was measured, then four times the last
 * measured time per unit of work, at least 30 s — so the host's watchdog waits for it and still
 * replaces a worker that hangs.
 */
export function blockingRuns(firstMs: number) {
  let msPerUnit: number | undefined;
  return async <T>(units: number, run: () => Promise<T>): Promise<T> => {
    post({ type: PROGRESS_MESSAGE, ms: msPerUnit === undefined ? firstMs : Math.max(30_000, 4 * msPerUnit * units) });
    const start = performance.now();
    const result = await run();
    msPerUnit = (performance.now() - start) / Math.max(1, units);
    post(PROGRESS_MESSAGE);
    return result;
  };
}
