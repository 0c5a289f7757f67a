/**
 * Engines shared across a site's tabs: a tab that uses an engine another tab holds calls it over a
 * MessagePort with comlink, as the page calls a worker: EngineErrors cross whole (./wire.ts). Each
 * call of the engine's API is numbered by the follower, so that `cancel` aborts only that call. A
 * call's callback objects (the `Comlink.proxy` objects a worker would get) stay in the follower: the
 * call carries a `HooksRef` for each, and the holder sends their calls one way, as `ShareEvent`s on
 * the port the follower attached; the call's answer says how many it sent, so the follower runs
 * them all before it answers.
 */
export interface SharedEngine {
  /** One job: `method` of the engine's API, run with the holder's queue. */
  run(call: number, method: string, ...args: unknown[]): Promise<SharedAnswer>;
  /** The follower's signal aborted: only this call is cancelled. */
  cancel(call: number): void;
  /** The follower's end of its event channel, attached once before its first call. */
  attach(events: MessagePort): void;
}

export interface SharedAnswer {
  value: unknown;
  /** The `ShareEvent`s sent for the call. */
  events: number;
}

/** Holder → follower on the event port: a callback of a call, or the engine released (calls go elsewhere). */
export type ShareEvent = { call: number; hooks: number; method: string; args: unknown[] } | { released: true };

/** Stands for a call's callback object number `vaaniHooks` among its arguments. */
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
