import type * as Comlink from 'comlink';
import { EngineSlots } from './slots';
import { WorkerHost, type WorkerHostOptions } from './worker-host';

/** Where an engine's jobs run: its own worker, or (shared) a worker in whichever tab holds it. A job is one API call. */
export interface EngineHost<T> {
  run<R>(job: (api: Comlink.Remote<T>) => Promise<R>, signal?: AbortSignal): Promise<R>;
  dispose(): void;
}

/** Makes one Vaani's engine hosts. Hosts with the same `share` key in tabs of one site share one engine. */
export interface EngineHosts {
  /** Whether hosts given a share key share their engine with other tabs. */
  readonly shared: boolean;
  host<T>(options: WorkerHostOptions, share?: string): EngineHost<T>;
  dispose(): void;
}

/**
 * Every engine in its own worker in this tab (`createVaani({ share: false })`, and where sharing is
 * unavailable), the workers together within `slots`' memory budget.
 */
export const localHosts = (slots = new EngineSlots()): EngineHosts => ({
  shared: false,
  host: <T>(options: WorkerHostOptions) => new WorkerHost<T>(options, slots),
  dispose: () => {},
});
