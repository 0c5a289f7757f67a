import type { EngineErrorData } from './errors';

/**
 * Engines shared across a site's tabs: a tab that uses an engine another tab holds talks to that
 * tab over a MessagePort. A job is one call of the engine's API; callbacks among its arguments
 * (objects marked with `Comlink.proxy`) travel as `CallbackRef`s and come back as `event`s.
 */
export type ShareCall =
  | { type: 'call'; id: number; method: string; args: unknown[] }
  /** The follower's signal aborted: only this call is cancelled. */
  | { type: 'abort'; id: number };

export type ShareReply =
  | { type: 'event'; id: number; callback: number; name: string; args: unknown[] }
  | { type: 'result'; id: number; value: unknown }
  | { type: 'error'; id: number; error: EngineErrorData | { message: string } }
  /** The holder released the engine (its Vaani was disposed): calls go elsewhere from now on. */
  | { type: 'closed' };

export interface CallbackRef {
  vaaniCallback: number;
}

export const isCallbackRef = (value: unknown): value is CallbackRef =>
  typeof (value as CallbackRef | null)?.vaaniCallback === 'number';

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
