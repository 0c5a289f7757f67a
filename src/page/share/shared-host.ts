import type * as Comlink from 'comlink';
import { abortError } from '../../protocol/cancel';
import { EngineError } from '../../protocol/errors';
import type { EngineHost } from '../hosts/engine-hosts';
import type { EngineSlots } from '../hosts/slots';
import { WorkerHost, type WorkerHostOptions } from '../hosts/worker-host';
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
 * looks again: the first tab to take the lock holds the engine from then on. An engine this tab
 * holds counts in this tab's memory budget; released for it, it lets its lock go, so the next tab
 * to need the model takes it (models in different tabs do not evict each other).
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
    private readonly slots?: EngineSlots,
  ) {}

  async run<R>(job: (api: Comlink.Remote<T>) => Promise<R>, signal = new AbortController().signal): Promise<R> {
    if (signal.aborted) throw abortError(signal);
    for (let attempt = 0; !this.disposed; attempt++) {
      if (this.held) return this.held.host.run(job, signal);
      if (this.follower && !this.follower.closed) return job(this.follower.api<Comlink.Remote<T>>(signal));
      if (attempt >= ATTEMPTS) this.hold();
      else await (this.finding ??= this.find().finally(() => (this.finding = undefined)));
    }
    throw new EngineError('unavailable', `The ${this.options.name} engine was disposed.`, 'engine_disposed');
  }

  dispose(): void {
    this.disposed = true;
    this.follower?.close(`The ${this.options.name} engine was disposed.`);
    if (this.held) this.letGo(this.held);
  }

  /** Runs the engine in this tab: shared under the lock `release` frees, or unshared without one. */
  private hold(release?: () => void): Held<T> {
    const held: Held<T> = { host: undefined as never, release, followers: new Set() };
    held.host = new WorkerHost<T>(this.options, this.slots, () => this.letGo(held));
    return (this.held = held);
  }

  /** Ends an engine this tab ran: its followers are told, then its lock is freed for any tab to take. */
  private letGo(held: Held<T>): void {
    if (this.held !== held) return;
    this.held = undefined;
    if (held.release) this.session()?.withdraw(this.key);
    for (const close of held.followers) close();
    held.host.dispose();
    held.release?.();
  }

  /** Takes the engine's lock (and serves it) or connects to the tab holding it. */
  private async find(): Promise<void> {
    const session = this.session();
    if (!session) {
      this.hold();
      return;
    }
    const name = await session.lockName(this.key).catch(() => undefined);
    const release = name === undefined ? undefined : await tryHold(name).catch(() => undefined);
    if (name === undefined) {
      this.hold(); // no broker: unshared
      return;
    }
    if (release) {
      const { host, followers } = this.hold(release);
      await session.serve(this.key, (port, follower) => followers.add(serveFollower(port, follower, host)));
      return;
    }
    const line = await session.connect(this.key);
    if (line) this.follower = new Follower(line.port, line.holder, this.options.name);
  }
}
