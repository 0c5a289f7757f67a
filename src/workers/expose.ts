import * as Comlink from 'comlink';

export interface Pingable {
  /** Answers at once when the worker's event loop is free; the host's watchdog uses it. */
  ping(): boolean;
}

/** Marks an endpoint that already answers; a symbol in the global registry, so every copy of this module sees it. */
const EXPOSED = Symbol.for('vaani.engine-exposed');

/**
 * Exposes an engine API from inside a worker, with the ping the host's watchdog expects. Once per
 * endpoint: a worker's lazily loaded chunks (onnxruntime-web, XGrammar) import helpers from the
 * worker's entry, and where the worker was started under another URL (vite's dev server adds
 * `?worker_file`) that import evaluates a second copy of the worker; exposing it too would run
 * every job twice, interleaving the two copies' output.
 */
export function exposeEngine<T extends object>(api: T, endpoint: Comlink.Endpoint = globalThis as never): void {
  const marked = endpoint as Comlink.Endpoint & { [EXPOSED]?: true };
  if (marked[EXPOSED]) return;
  marked[EXPOSED] = true;
  Comlink.expose(Object.assign(api, { ping: () => true }), endpoint);
}

/** The message a busy worker posts to say it is still working (the host's watchdog counts it as an answer). */
export const PROGRESS_MESSAGE = 'vaani:progress';
let lastReport = 0;

/**
 * Tells the host the running job advanced. Posted straight from the worker, so it arrives while a
 * long job keeps the worker's event loop busy (when pings wait); at most every 200 ms.
 */
export function reportProgress(): void {
  const now = Date.now();
  if (now - lastReport < 200) return;
  lastReport = now;
  (globalThis as unknown as { postMessage(message: unknown): void }).postMessage(PROGRESS_MESSAGE);
}
