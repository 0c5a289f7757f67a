import type * as Comlink from 'comlink';
import { abortError } from '../../protocol/cancel';
import { EngineError } from '../../protocol/errors';
import type { EngineHost } from '../engine-host';
import { WorkerHost, type WorkerHostOptions } from '../worker-host';
import { Follower } from './follow';
import { tryHold } from './locks';
import { serveFollower } from './serve';
import type { ShareSession } from './session';

interface Held<T> {
  host: WorkerHost<T>;
  /** Frees the engine's lock; undefined for an engine this tab runs unshared. */
  release?: () => void;
  followers: Set<() => void>;
}

/** Attempts to find or become the holder before running unshared. */
const ATTEMPTS = 3;

/**
 * One engine shared by the tabs of a site. The first tab to need it takes its Web Lock and runs it
 * in its own worker (a WorkerHost, serving the others over MessagePorts); other tabs send it their
 * calls. When the holder goes, their calls in flight fail with `crashed` (503) and the next request
 * looks again: the first tab to take the lock holds the engine from then on.
 */
export class SharedHost<T> implements EngineHost<T> {
  private held: Held<T> | undefined;
  private follower: Follower | undefined;
  private finding: Promise<void> | undefined;
  private disposed = false;

  constructor(
    private readonly session: () => ShareSession | undefined,
    private readonly options: WorkerHostOptions,
    private readonly key: string,
  ) {}

  async run<R>(job: (api: Comlink.Remote<T>) => Promise<R>, signal = new AbortController().signal): Promise<R> {
    if (signal.aborted) throw abortError(signal);
    for (let attempt = 0; !this.disposed; attempt++) {
      if (this.held) return this.held.host.run(job, signal);
      if (this.follower && !this.follower.closed) return job(this.follower.api<Comlink.Remote<T>>(signal));
      if (attempt >= ATTEMPTS) this.held = { host: new WorkerHost<T>(this.options), followers: new Set() };
      else await (this.finding ??= this.find().finally(() => (this.finding = undefined)));
    }
    throw new EngineError('unavailable', `The ${this.options.name} engine was disposed.`, 'engine_disposed');
  }

  dispose(): void {
    this.disposed = true;
    this.follower?.close(`The ${this.options.name} engine was disposed.`);
    if (!this.held) return;
    const { host, release, followers } = this.held;
    if (release) this.session()?.withdraw(this.key);
    for (const close of followers) close();
    host.dispose();
    release?.();
  }

  /** Takes the engine's lock (and serves it) or connects to the tab holding it. */
  private async find(): Promise<void> {
    const session = this.session();
    if (!session) {
      this.held = { host: new WorkerHost<T>(this.options), followers: new Set() };
      return;
    }
    const name = await session.lockName(this.key).catch(() => undefined);
    const release = name === undefined ? undefined : await tryHold(name).catch(() => undefined);
    if (name === undefined) {
      this.held = { host: new WorkerHost<T>(this.options), followers: new Set() }; // no broker: unshared
      return;
    }
    if (release) {
      const host = new WorkerHost<T>(this.options);
      const followers = new Set<() => void>();
      this.held = { host, release, followers };
      await session.serve(this.key, (port, follower) => followers.add(serveFollower(port, follower, host)));
      return;
    }
    const line = await session.connect(this.key);
    if (line) this.follower = new Follower(line.port, line.holder, this.options.name);
  }
}
