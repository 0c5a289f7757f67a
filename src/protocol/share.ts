/**
 * Engines shared across a site's tabs: a tab that uses an engine another tab holds calls it over a
 * MessagePort with comlink, as the page calls a worker: EngineErrors cross whole (./wire.ts). Each
 * call of the engine's API is numbered by the follower, so that `cancel` aborts only that call. A
 * call's callback objects (the `Comlink.proxy` objects a worker would get) stay in the follower: the
 * call carries a `HooksRef` for each, and the holder calls them back through the one `ShareClient`
 * the follower attached, so a call opens no channel of its own.
 */
export interface SharedEngine {
  /** One job: `method` of the engine's API, run with the holder's queue. */
  run(call: number, method: string, ...args: unknown[]): Promise<unknown>;
  /** The follower's signal aborted: only this call is cancelled. */
  cancel(call: number): void;
  /** The follower's `Comlink.proxy`, attached once before its first call. */
  attach(client: ShareClient): void;
}

/** The follower's side, called by the holder. */
export interface ShareClient {
  /** Calls `method` of callback object `hooks` of call `call`; settles once it has run there. */
  emit(call: number, hooks: number, method: string, args: unknown[]): unknown;
  /** The holder released the engine: calls go elsewhere from then on. */
  released(): void;
}

/** Stands for a call's callback object number `hooks` among its arguments. */
export interface HooksRef {
  vaaniHooks: number;
}

export const isHooksRef = (value: unknown): value is HooksRef =>
  typeof value === 'object' && value !== null && typeof (value as HooksRef).vaaniHooks === 'number';

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
