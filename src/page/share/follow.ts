import * as Comlink from 'comlink';
import { abortError } from '../../protocol/cancel';
import { EngineError } from '../../protocol/errors';
import type { ShareCall, ShareReply } from '../../protocol/share';
import { aliveLock } from '../../protocol/share';
import { whenFree } from './locks';

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  callbacks: Record<string, (...args: unknown[]) => unknown>[];
}

/** An object marked with `Comlink.proxy`: a callback the engine calls back, not data. */
const isProxied = (value: unknown): value is Record<string, (...args: unknown[]) => unknown> =>
  (typeof value === 'object' || typeof value === 'function') &&
  value !== null &&
  (value as Record<symbol, unknown>)[Comlink.proxyMarker] === true;

/**
 * A follower's line to the tab holding an engine. Every call is answered, always: by the holder, or
 * with a `crashed` error when the holder's tab closes (its alive lock frees) or it releases the
 * engine, after which `closed` is true and the next request looks for a holder again.
 */
export class Follower {
  closed = false;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private readonly watch: { stop(): void };

  constructor(
    private readonly port: MessagePort,
    holder: string,
    private readonly name: string,
  ) {
    port.onmessage = ({ data }: MessageEvent<ShareReply>) => this.receive(data);
    this.watch = whenFree(aliveLock(holder), () =>
      this.close(`The tab that held the ${name} engine closed; it will start again on the next request.`),
    );
  }

  /** The engine API as a job sees it: each method call is one call to the holder. */
  api<T>(signal: AbortSignal): T {
    return new Proxy({} as Record<string, unknown>, {
      get: (_, method) =>
        typeof method === 'string' && method !== 'then'
          ? (...args: unknown[]) => this.call(method, args, signal)
          : undefined,
    }) as T;
  }

  close(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.watch.stop();
    this.port.close();
    for (const call of this.pending.values()) call.reject(new EngineError('crashed', reason, 'engine_crashed'));
    this.pending.clear();
  }

  private call(method: string, args: unknown[], signal: AbortSignal): Promise<unknown> {
    if (signal.aborted) return Promise.reject(abortError(signal));
    if (this.closed)
      return Promise.reject(new EngineError('crashed', `The ${this.name} engine's tab is gone.`, 'engine_crashed'));
    const id = ++this.nextId;
    const callbacks: Pending['callbacks'] = [];
    const wire = args.map((arg) => (isProxied(arg) ? { vaaniCallback: callbacks.push(arg) - 1 } : arg));
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        if (!this.closed) this.post({ type: 'abort', id });
        reject(abortError(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      const settle = (done: () => void) => {
        signal.removeEventListener('abort', onAbort);
        done();
      };
      this.pending.set(id, {
        resolve: (value) => settle(() => resolve(value)),
        reject: (error) => settle(() => reject(error)),
        callbacks,
      });
      try {
        this.post({ type: 'call', id, method, args: wire });
      } catch (error) {
        this.pending.delete(id);
        settle(() => reject(error));
      }
    });
  }

  private receive(reply: ShareReply): void {
    if (reply.type === 'closed')
      return this.close(
        `The tab that held the ${this.name} engine released it; it will start again on the next request.`,
      );
    const call = this.pending.get(reply.id);
    if (!call) return;
    if (reply.type === 'event') return void call.callbacks[reply.callback]?.[reply.name]?.(...reply.args);
    this.pending.delete(reply.id);
    if (reply.type === 'result') call.resolve(reply.value);
    else call.reject('kind' in reply.error ? EngineError.from(reply.error) : new Error(reply.error.message));
  }

  private post(message: ShareCall): void {
    this.port.postMessage(message);
  }
}
