import * as Comlink from 'comlink';
import { EngineError } from '../../protocol/errors';
import { aliveLock, isCallbackRef, type ShareCall, type ShareReply } from '../../protocol/share';
import type { EngineHost } from '../hosts/engine-hosts';
import { whenFree } from './locks';

/**
 * A follower's callback on the holder's side: each method call is posted back as an `event`.
 * Marked for comlink, so the engine worker can call it like the follower's own object.
 */
function relay(post: (reply: ShareReply) => void, id: number, callback: number): object {
  const target: Record<string | symbol, unknown> = {};
  return Comlink.proxy(
    new Proxy(target, {
      get: (_, name) =>
        typeof name === 'symbol' || name in target || name === 'then'
          ? target[name]
          : (...args: unknown[]) => post({ type: 'event', id, callback, name, args }),
    }),
  );
}

const wireError = (error: unknown): Extract<ShareReply, { type: 'error' }>['error'] =>
  error instanceof EngineError ? error.toData() : { message: error instanceof Error ? error.message : String(error) };

/**
 * Serves one follower over `port` from the holder's own host: its calls queue with this tab's
 * (the same bound, the same one-at-a-time worker), its aborts cancel only its own calls, and its
 * tab closing (its alive lock frees) cancels them all. Returns a function that tells the follower
 * the engine is gone and closes the port.
 */
export function serveFollower<T>(port: MessagePort, follower: string, host: EngineHost<T>): () => void {
  const running = new Map<number, AbortController>();
  const gone = whenFree(aliveLock(follower), () => {
    for (const controller of running.values()) controller.abort();
    port.close();
  });
  const post = (reply: ShareReply) => port.postMessage(reply);
  port.onmessage = ({ data }: MessageEvent<ShareCall>) => {
    if (data.type === 'abort') return void running.get(data.id)?.abort();
    const { id, method, args } = data;
    const controller = new AbortController();
    running.set(id, controller);
    const decoded = args.map((arg) => (isCallbackRef(arg) ? relay(post, id, arg.vaaniCallback) : arg));
    host
      .run(
        (api) => (api as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method]!(...decoded),
        controller.signal,
      )
      .then(
        (value) => post({ type: 'result', id, value }),
        (error: unknown) => {
          if (!controller.signal.aborted) post({ type: 'error', id, error: wireError(error) });
        },
      )
      .finally(() => running.delete(id));
  };
  return () => {
    gone.stop();
    for (const controller of running.values()) controller.abort();
    post({ type: 'closed' });
    port.close();
  };
}
