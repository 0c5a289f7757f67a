import * as Comlink from 'comlink';
import { abortError } from '../../protocol/cancel';
import { EngineError } from '../../protocol/errors';
import { registerEngineErrors } from '../../protocol/wire';
import { PROGRESS_MESSAGE, type BlockingNotice, type EngineControl } from '../../protocol/control';
import type { EngineSlots, Slot } from './slots';
import { startTrusted } from '../../common/trusted-types';
import type { WasmSource } from '../../common/backends/wasm-source';

export interface WorkerHostOptions {
  /**
   * Starts the worker, e.g. `() => new Worker(new URL('./x.worker.ts', import.meta.url), { type: 'module' })`
   * (the form bundlers follow); it runs inside `startTrusted`, so Trusted Types pages accept the URL.
   */
  create(): Worker;
  name: string;
  /** Jobs that may wait behind the running one; past this a job gets a `busy` error. Default 16. */
  maxQueue?: number;
  /**
   * A busy worker that has neither answered a ping nor reported progress (`reportProgress`) for
   * this long is replaced. Default 60 000 ms: a long job that keeps reporting runs as long as it needs,
   * and one long blocking call announced with `blockingRuns` gets the time it announced.
   */
  stallMs?: number;
}

interface Live<T> {
  worker: Worker;
  api: Comlink.Remote<T & EngineControl>;
  /** Rejects when the worker dies; every running job races it. */
  dead: Promise<never>;
  /** When the worker last reported progress (Date.now()), or until when it said it would be busy. */
  progressAt: number;
  kill(reason: string): void;
}

/**
 * onnxruntime-web's WASM for this page's workers: each build fetched, inflated and compiled once
 * (src/common/backends/ort-wasm.ts, loaded on first use), the compiled module sent to each worker.
 */
const pageWasm: WasmSource = {
  wasm: async (build) => (await import('../../common/backends/ort-wasm')).prepareWasm(build),
};

interface Waiting {
  start(): void;
}

/**
 * One engine worker behind comlink: started on first use, one job at a time with a bounded queue,
 * replaced when it crashes or stops answering (its jobs get a `crashed` error; the next job starts a
 * new one). The one cancel contract: aborting a job's signal aborts the worker call's own signal.
 * With `slots`, the worker reports the model bytes it holds after each job and may be released
 * while idle to keep the tab's engines within their budget (`onRelease` is then told).
 */
export class WorkerHost<T> implements Slot {
  private live: Live<T> | undefined;
  private busy = false;
  private disposed = false;
  private readonly queue: Waiting[] = [];

  constructor(
    private readonly options: WorkerHostOptions,
    private readonly slots?: EngineSlots,
    private readonly onRelease?: () => void,
  ) {
    registerEngineErrors();
  }

  get idle(): boolean {
    return !this.busy;
  }

  /** Ends an idle worker to free its memory; the next job starts a new one. */
  release(): void {
    const live = this.live;
    if (!live || !this.idle) return;
    this.live = undefined;
    this.slots?.gone(this);
    live.kill(`The ${this.options.name} engine was released.`);
    this.onRelease?.();
  }

  /**
   * Runs `job` with the worker's API once the jobs before it are done. Aborting `signal` cancels the
   * worker's job and rejects like fetch does, whatever the job answered.
   */
  async run<R>(job: (api: Comlink.Remote<T>) => Promise<R>, signal = new AbortController().signal): Promise<R> {
    if (signal.aborted) throw abortError(signal);
    await this.turn(signal);
    if (this.disposed) {
      this.next();
      throw new EngineError('unavailable', `The ${this.options.name} engine was disposed.`, 'engine_disposed');
    }
    const live = this.worker();
    const watchdog = this.watch(live);
    const cancel = () => void live.api.cancel();
    signal.addEventListener('abort', cancel, { once: true });
    try {
      const result = await Promise.race([job(live.api as unknown as Comlink.Remote<T>), live.dead]);
      if (signal.aborted) throw abortError(signal);
      return result;
    } catch (error) {
      throw signal.aborted ? abortError(signal) : error;
    } finally {
      signal.removeEventListener('abort', cancel);
      clearInterval(watchdog);
      this.report(live);
      this.next();
    }
  }

  /** Ends the worker; queued jobs are rejected. */
  dispose(): void {
    this.disposed = true;
    this.slots?.gone(this);
    this.live?.kill(`The ${this.options.name} engine was disposed.`);
    for (const waiting of this.queue.splice(0)) waiting.start();
  }

  private turn(signal: AbortSignal): Promise<void> {
    if (!this.busy) {
      this.busy = true;
      return Promise.resolve();
    }
    const max = this.options.maxQueue ?? 16;
    if (this.queue.length >= max) {
      throw new EngineError(
        'busy',
        `The ${this.options.name} engine is busy: ${max} requests are already waiting. Retry later.`,
        'engine_busy',
      );
    }
    return new Promise<void>((resolve, reject) => {
      const waiting: Waiting = { start: resolve };
      this.queue.push(waiting);
      signal.addEventListener(
        'abort',
        () => {
          const index = this.queue.indexOf(waiting);
          if (index >= 0) this.queue.splice(index, 1);
          reject(abortError(signal));
        },
        { once: true },
      );
    });
  }

  private next(): void {
    const waiting = this.queue.shift();
    if (waiting) waiting.start();
    else this.busy = false;
  }

  private worker(): Live<T> {
    if (this.live) return this.live;
    const worker = startTrusted(() => this.options.create());
    const runtime = new MessageChannel();
    let kill!: (reason: string) => void;
    const dead = new Promise<never>((_, reject) => {
      kill = (reason) => {
        worker.terminate();
        runtime.port1.close();
        if (this.live?.worker === worker) {
          this.live = undefined;
          this.slots?.gone(this);
        }
        reject(new EngineError('crashed', reason, 'engine_crashed'));
      };
    });
    dead.catch(() => {});
    const name = this.options.name;
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      kill(`The ${name} engine crashed (${event.message || 'worker error'}); it will restart on the next request.`);
    });
    worker.addEventListener('message', ({ data }) => {
      if (this.live?.worker !== worker) return;
      if (data === PROGRESS_MESSAGE) this.live.progressAt = Date.now();
      else if ((data as BlockingNotice | null)?.type === PROGRESS_MESSAGE)
        this.live.progressAt = Date.now() + (data as BlockingNotice).ms;
    });
    worker.addEventListener('messageerror', () =>
      kill(`The ${name} engine sent an unreadable message; it will restart on the next request.`),
    );
    const api = Comlink.wrap<T & EngineControl>(worker);
    // Sent before any job: a job that loads onnxruntime-web asks this page for the WASM.
    Comlink.expose(pageWasm, runtime.port1);
    api.runtime(Comlink.transfer(runtime.port2, [runtime.port2])).catch(() => {});
    this.live = { worker, api, dead, kill, progressAt: 0 };
    this.slots?.starting(this);
    return this.live;
  }

  /** Tells the slots what the worker holds now that a job ended (after the job's answer: never on its path). */
  private report(live: Live<T>): void {
    if (!this.slots || this.live !== live) return;
    live.api.footprint().then(
      (bytes) => this.live === live && this.slots!.used(this, bytes),
      () => {},
    );
  }

  private watch(live: Live<T>): ReturnType<typeof setInterval> {
    const stallMs = this.options.stallMs ?? 60_000;
    let answered = Date.now();
    let pending = false;
    return setInterval(
      () => {
        if (Date.now() - Math.max(answered, live.progressAt) > stallMs) {
          live.kill(
            `The ${this.options.name} engine stopped answering and made no progress for ${stallMs} ms; it will restart on the next request.`,
          );
          return;
        }
        if (pending) return;
        pending = true;
        live.api.ping().then(() => {
          answered = Date.now();
          pending = false;
        });
      },
      Math.min(1000, stallMs / 4),
    );
  }
}
