/**
 * Engines shared across a site's tabs: a tab that uses an engine another tab holds calls it over a
 * MessagePort with comlink, as the page calls a worker: EngineErrors cross whole (./wire.ts), and
 * callbacks among a call's arguments are `Comlink.proxy` objects. Each call of the engine's API is
 * numbered by the follower, so that `cancel` aborts only that call.
 */
export interface SharedEngine {
  /** One job: `method` of the engine's API, run with the holder's queue. */
  run(call: number, method: string, ...args: unknown[]): Promise<unknown>;
  /** The follower's signal aborted: only this call is cancelled. */
  cancel(call: number): void;
  /** A follower's `Comlink.proxy`, called when the holder releases the engine: calls go elsewhere from then on. */
  closed(notify: () => void): void;
}

/**
 * Tab ↔ broker (a SharedWorker that only introduces tabs): a holder says which engines it serves;
 * a follower sends one end of a MessageChannel to be handed to the holder of `key`.
 */
export type BrokerRequest =
  | { type: 'serve'; key: string; holder: string }
  | { type: 'withdraw'; key: string; holder: string }
  /** With the follower's port transferred; `follower` is its Vaani's id. */
  | { type: 'connect'; key: string; request: number; follower: string };

export type BrokerReply =
  /** First on every port: the broker's script path, which scopes lock names to this build of the library. */
  | { type: 'hello'; scope: string }
  | { type: 'connected'; request: number; holder: string }
  | { type: 'unserved'; request: number }
  /** To a holder, with the follower's port transferred. */
  | { type: 'follower'; key: string; follower: string };

/** Held by every sharing Vaani for its life: another tab learns that it is gone when it can take this. */
export const aliveLock = (instance: string) => `vaani:alive:${instance}`;
