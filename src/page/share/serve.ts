import * as Comlink from 'comlink';
import { aliveLock, type SharedEngine } from '../../protocol/share';
import { registerEngineErrors } from '../../protocol/wire';
import type { EngineHost } from '../hosts/engine-hosts';
import { whenFree } from './locks';

type Methods = Record<string, (...args: unknown[]) => Promise<unknown>>;

/**
 * A follower's callback arrives here as a comlink Remote (the only functions a call can carry):
 * marked again for comlink, so the engine's worker calls it like the follower's own object, each
 * call going on to the follower and answering once it has been delivered there, or once the
 * follower is gone (`ended`): a worker awaiting its last event must not wait on a closed tab.
 */
function relay(arg: unknown, ended: Promise<void>): unknown {
  if (typeof arg !== 'function') return arg;
  const remote = arg as unknown as Methods;
  const target: Record<string | symbol, unknown> = {};
  return Comlink.proxy(
    new Proxy(target, {
      get: (_, name) =>
        typeof name === 'symbol' || name === 'then'
          ? target[name]
          : (...args: unknown[]) => Promise.race([remote[name]!(...args), ended]),
    }),
  );
}

/**
 * Serves one follower over `port` from the holder's own host: its calls queue with this tab's
 * (the same bound, the same one-at-a-time worker), its aborts cancel only its own calls, and its
 * tab closing (its alive lock frees) cancels them all. Returns a function that tells the follower
 * the engine is gone and closes the port.
 */
export function serveFollower<T>(port: MessagePort, follower: string, host: EngineHost<T>): () => void {
  registerEngineErrors();
  const running = new Map<number, AbortController>();
  let notify: (() => unknown) | undefined;
  let released = false;
  let ending!: () => void;
  const ended = new Promise<void>((resolve) => (ending = resolve));
  const end = () => {
    ending();
    gone.stop();
    for (const controller of running.values()) controller.abort();
    port.close();
  };
  const tell = () => {
    void Promise.resolve(notify!()).catch(() => {});
    end();
  };
  const engine: SharedEngine = {
    async run(call, method, ...args) {
      const controller = new AbortController();
      running.set(call, controller);
      try {
        return await host.run(
          (api) => (api as unknown as Methods)[method]!(...args.map((arg) => relay(arg, ended))),
          controller.signal,
        );
      } finally {
        running.delete(call);
        for (const arg of args)
          if (typeof arg === 'function') (arg as unknown as Comlink.Remote<object>)[Comlink.releaseProxy]();
      }
    },
    cancel: (call) => running.get(call)?.abort(),
    closed(callback) {
      notify = callback;
      if (released) tell();
    },
  };
  Comlink.expose(engine, port);
  const gone = whenFree(aliveLock(follower), end);
  return () => {
    released = true;
    for (const controller of running.values()) controller.abort();
    // The follower registers first on its port; until that arrives, `closed` tells it on arrival.
    if (notify) tell();
  };
}
