import * as Comlink from 'comlink';
import { aliveLock, isHooksRef, type HooksRef, type ShareClient, type SharedEngine } from '../../protocol/share';
import { registerEngineErrors } from '../../protocol/wire';
import type { EngineHost } from '../hosts/engine-hosts';
import { whenFree } from './locks';

type Methods = Record<string, (...args: unknown[]) => Promise<unknown>>;

/**
 * A follower's callback object, for the engine's worker: marked for comlink so the worker calls it
 * like the follower's own object, each call going on to the follower and answering once it has run
 * there, or once the follower is gone (`ended`): a worker awaiting its last event must not wait on a
 * closed tab.
 */
function hooks(client: () => Comlink.Remote<ShareClient>, call: number, ref: HooksRef, ended: Promise<void>) {
  const target: Record<string | symbol, unknown> = {};
  return Comlink.proxy(
    new Proxy(target, {
      get: (_, name) =>
        typeof name === 'symbol' || name === 'then'
          ? target[name]
          : (...args: unknown[]) => Promise.race([client().emit(call, ref.vaaniHooks, name, args), ended]),
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
  let client: Comlink.Remote<ShareClient> | undefined;
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
    void Promise.resolve(client!.released()).catch(() => {});
    end();
  };
  const engine: SharedEngine = {
    async run(call, method, ...args) {
      const controller = new AbortController();
      running.set(call, controller);
      const wired = args.map((arg) => (isHooksRef(arg) ? hooks(() => client!, call, arg, ended) : arg));
      try {
        return await host.run((api) => (api as unknown as Methods)[method]!(...wired), controller.signal);
      } finally {
        running.delete(call);
      }
    },
    cancel: (call) => running.get(call)?.abort(),
    attach(remote) {
      client = remote as unknown as Comlink.Remote<ShareClient>;
      if (released) tell();
    },
  };
  Comlink.expose(engine, port);
  const gone = whenFree(aliveLock(follower), end);
  return () => {
    released = true;
    for (const controller of running.values()) controller.abort();
    // The follower attaches first on its port; until that arrives, `attach` tells it on arrival.
    if (client) tell();
  };
}
