import * as Comlink from 'comlink';
import { PROGRESS_MESSAGE, type BlockingNotice, type EngineControl } from '../../protocol/control';
import { EngineError } from '../../protocol/errors';
import { registerEngineErrors } from '../../protocol/wire';
import { footprint } from './footprint';
import { trustWorkerStarts } from '../../common/trusted-types';
import { useWasmSource, type WasmSource } from '../../common/backends/wasm-source';

/** Marks an endpoint that already answers; a symbol in the global registry, so every copy of this module sees it. */
const EXPOSED = Symbol.for('vaani.engine-exposed');

/**
 * Exposes an engine's handlers (a `Served<…Worker>`, src/protocol/worker.ts) from inside a worker:
 * EngineErrors cross whole (src/protocol/wire.ts), each call gets a fresh AbortSignal as its
 * first argument (the host runs one job at a time; its `cancel` aborts the running call's signal
 * with an `aborted` EngineError), and `ping`, `cancel`, `footprint` and `runtime` are added. Once per endpoint: a worker's lazily loaded chunks (onnxruntime-web,
 * XGrammar) import helpers from the worker's entry, and where the worker was started under another
 * URL (vite's dev server adds `?worker_file`) that import evaluates a second copy of the worker;
 * exposing it too would run every job twice, interleaving the two copies' output.
 */
export function exposeEngine(handlers: object, endpoint: Comlink.Endpoint = globalThis as never): void {
  const marked = endpoint as Comlink.Endpoint & { [EXPOSED]?: true };
  if (marked[EXPOSED]) return;
  marked[EXPOSED] = true;
  registerEngineErrors();
  trustWorkerStarts(); // onnxruntime-web's threads, where the worker's CSP requires Trusted Types
  let running = new AbortController();
  const api: Record<string, unknown> = {};
  for (const [name, handler] of Object.entries(handlers))
    api[name] =
      typeof handler === 'function'
        ? (...args: unknown[]) => {
            running = new AbortController();
            return (handler as (signal: AbortSignal, ...rest: unknown[]) => unknown).call(
              handlers,
              running.signal,
              ...args,
            );
          }
        : handler;
  const control: EngineControl = {
    ping: () => true,
    cancel: () => running.abort(new EngineError('aborted', 'The request was cancelled.', 'cancelled')),
    footprint,
    runtime: (port) => useWasmSource(Comlink.wrap<WasmSource>(port)),
  };
  Comlink.expose(Object.assign(api, control), endpoint);
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
