import * as Comlink from 'comlink';
import { abortError } from '../../protocol/cancel';
import { EngineError } from '../../protocol/errors';
import { aliveLock, type ShareEvent, type SharedEngine } from '../../protocol/share';
import { registerEngineErrors } from '../../protocol/wire';
import { whenFree } from './locks';

/** A callback object as the page marks it for a worker. */
const isProxied = (arg: unknown) =>
  typeof arg === 'object' && arg !== null && (arg as { [Comlink.proxyMarker]?: boolean })[Comlink.proxyMarker] === true;

type Hooks = Record<string, (...args: unknown[]) => unknown>;

interface Running {
  hooks: Hooks[];
  received: number;
  /** Set once the answer says how many events to wait for. */
  expected?: number;
  done?: () => void;
  /** The first callback that threw: the call fails with it, as a worker's would. */
  error?: { error: unknown };
}

/**
 * A follower's line to the tab holding an engine: its calls go over comlink (./serve.ts answers).
 * Every call is answered, always: by the holder, or with a `crashed` error when the holder's tab
 * closes (its alive lock frees) or it releases the engine — comlink never settles a call on a dead
 * port, so each races `gone` — after which `closed` is true and the next request looks for a holder again.
 */
export class Follower {
  closed = false;
  private readonly remote: Comlink.Remote<SharedEngine>;
  private readonly gone: Promise<never>;
  private fail!: (error: EngineError) => void;
  private nextCall = 0;
  /** Each running call's callback objects and the events run for it so far. */
  private readonly calls = new Map<number, Running>();
  private readonly events: MessagePort;
  private readonly watch: { stop(): void };

  constructor(
    private readonly port: MessagePort,
    holder: string,
    private readonly name: string,
  ) {
    registerEngineErrors();
    this.gone = new Promise((_, reject) => (this.fail = reject));
    this.gone.catch(() => {});
    this.remote = Comlink.wrap<SharedEngine>(port);
    const channel = new MessageChannel();
    this.events = channel.port1;
    this.events.onmessage = ({ data }: MessageEvent<ShareEvent>) => {
      if ('released' in data)
        return this.close(`The tab that held the ${name} engine released it; it will start again on the next request.`);
      const running = this.calls.get(data.call);
      if (!running) return;
      try {
        running.hooks[data.hooks]?.[data.method]?.(...data.args);
      } catch (error) {
        running.error ??= { error };
      }
      if (++running.received === running.expected) running.done?.();
    };
    void this.remote.attach(Comlink.transfer(channel.port2, [channel.port2]));
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
    this.events.close();
    this.fail(new EngineError('crashed', reason, 'engine_crashed'));
  }

  private async call(method: string, args: unknown[], signal: AbortSignal): Promise<unknown> {
    if (signal.aborted) throw abortError(signal);
    if (this.closed) throw new EngineError('crashed', `The ${this.name} engine's tab is gone.`, 'engine_crashed');
    const call = ++this.nextCall;
    let onAbort!: () => void;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        if (!this.closed) void this.remote.cancel(call);
        reject(abortError(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
    const running: Running = { hooks: [], received: 0 };
    const wired = args.map((arg) => (isProxied(arg) ? { vaaniHooks: running.hooks.push(arg as Hooks) - 1 } : arg));
    this.calls.set(call, running);
    try {
      const answer = await Promise.race([this.remote.run(call, method, ...wired), this.gone, aborted]);
      // The events travel on their own port: the answer can overtake the last of them.
      if (running.received < answer.events)
        await Promise.race([
          new Promise<void>((resolve) => Object.assign(running, { expected: answer.events, done: resolve })),
          this.gone,
          aborted,
        ]);
      if (running.error) throw running.error.error;
      return answer.value;
    } finally {
      this.calls.delete(call);
      signal.removeEventListener('abort', onAbort);
    }
  }
}
