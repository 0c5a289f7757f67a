import * as Comlink from 'comlink';

export interface Pingable {
  /** Answers at once when the worker's event loop is free; the host's watchdog uses it. */
  ping(): boolean;
}

/** Exposes an engine API from inside a worker, with the ping the host's watchdog expects. */
export function exposeEngine<T extends object>(api: T): void {
  Comlink.expose(Object.assign(api, { ping: () => true }));
}
