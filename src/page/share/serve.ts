import * as Comlink from 'comlink';
import { aliveLock, isHooksRef, type ShareEvent, type SharedEngine } from '../../protocol/share';
import { registerEngineErrors } from '../../protocol/wire';
import type { EngineHost } from '../hosts/engine-hosts';
import { whenFree } from './locks';

type Methods = Record<string, (...args: unknown[]) => Promise<unknown>>;

/** A follower's callback object, for the engine's worker: each of its calls is sent on, one way. */
function hooks(send: (method: string, args: unknown[]) => void) {
  const target: Record<string | symbol, unknown> = {};
  return Comlink.proxy(
    new Proxy(target, {
      get: (_, name) =>
        typeof name === 'symbol' || name === 'then' ? target[name] : (...args: unknown[]) => send(name, args),
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
  let events: MessagePort | undefined;
  let released = false;
  const send = (event: ShareEvent) => events!.postMessage(event);
  const end = () => {
    gone.stop();
    for (const controller of running.values()) controller.abort();
    port.close();
    events?.close();
  };
  const tell = () => {
    send({ released: true });
    end();
  };
  const engine: SharedEngine = {
    async run(call, method, ...args) {
      const controller = new AbortController();
      running.set(call, controller);
      let sent = 0;
      const wired = args.map((arg) =>
        isHooksRef(arg)
          ? hooks((name, params) => {
              sent++;
              send({ call, hooks: arg.vaaniHooks, method: name, args: params });
            })
          : arg,
      );
      try {
        const value = await host.run((api) => (api as unknown as Methods)[method]!(...wired), controller.signal);
        return { value, events: sent };
      } finally {
        running.delete(call);
      }
    },
    cancel: (call) => running.get(call)?.abort(),
    attach(port) {
      events = port;
      if (released) tell();
    },
  };
  Comlink.expose(engine, port);
  const gone = whenFree(aliveLock(follower), end);
  return () => {
    released = true;
    for (const controller of running.values()) controller.abort();
    // The follower attaches first on its port; until that arrives, `attach` tells it on arrival.
    if (events) tell();
  };
}
