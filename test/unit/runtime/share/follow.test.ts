import * as Comlink from 'comlink';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EngineError } from '../../../../src/protocol/errors';
import { toApiError } from '../../../../src/page/api/http/errors';
import type { EngineHost } from '../../../../src/page/hosts/engine-hosts';
import { WorkerHost } from '../../../../src/page/hosts/worker-host';
import { Follower } from '../../../../src/page/share/follow';
import { serveFollower } from '../../../../src/page/share/serve';
import { exposeEngine } from '../../../../src/worker/host/expose';

/** Web Locks enough for alive locks: `request(name, { signal }?, callback)` granted once no one holds `name`. */
function fakeLocks() {
  const held = new Map<string, Promise<unknown>>();
  return {
    request(name: string, ...rest: unknown[]) {
      const callback = rest.at(-1) as (lock: object) => unknown;
      const signal = (rest.length > 1 ? (rest[0] as { signal?: AbortSignal }).signal : undefined) ?? undefined;
      const previous = held.get(name) ?? Promise.resolve();
      const run = previous.then(() => {
        if (signal?.aborted) throw new Error('aborted');
        return callback({ name });
      });
      held.set(
        name,
        run.catch(() => {}),
      );
      return run;
    },
  };
}

interface Api {
  echo(text: string, events?: { step(n: number): void }): Promise<string>;
  slow(signal?: unknown): Promise<string>;
  fail(): Promise<never>;
}

/** A host that runs jobs against `api` at once, honouring the job's signal like WorkerHost does. */
function hostOver(api: Api): EngineHost<Api> & { aborted: number } {
  const host = {
    aborted: 0,
    run: async <R>(job: (api: Comlink.Remote<Api>) => Promise<R>, signal?: AbortSignal) => {
      signal?.addEventListener('abort', () => host.aborted++);
      return job(api as unknown as Comlink.Remote<Api>);
    },
    dispose: () => {},
  };
  return host;
}

/** Both tabs' alive locks, each held until the test calls its release. */
async function aliveTabs(): Promise<{ holder: () => void; follower: () => void }> {
  vi.stubGlobal('navigator', { locks: fakeLocks() });
  const hold = (name: string) =>
    new Promise<() => void>((granted) => {
      void navigator.locks.request(name, () => new Promise<void>((resolve) => granted(resolve)));
    });
  return { holder: await hold('vaani:alive:holder'), follower: await hold('vaani:alive:follower') };
}

describe('a follower and the holder serving it over a MessagePort', () => {
  let release: () => void;
  beforeEach(async () => {
    release = (await aliveTabs()).holder;
  });
  afterEach(() => vi.unstubAllGlobals());

  const connect = (api: Api) => {
    const channel = new MessageChannel();
    const host = hostOver(api);
    const close = serveFollower(channel.port2, 'follower', host);
    const follower = new Follower(channel.port1, 'holder', 'test');
    return { follower, host, close };
  };

  it('carries arguments, results and callbacks, and EngineErrors whole', async () => {
    const { follower } = connect({
      // As every engine worker does, the last event is awaited before answering (its result is on another port).
      echo: async (text, events) => {
        void events?.step(1);
        await events?.step(2);
        return text.toUpperCase();
      },
      slow: async () => '',
      fail: async () => {
        throw new EngineError('busy', 'full', 'engine_busy');
      },
    });
    const api = follower.api<Comlink.Remote<Api>>(new AbortController().signal);
    const steps: number[] = [];
    expect(await api.echo('नमस्ते abc', Comlink.proxy({ step: (n: number) => steps.push(n) }))).toBe('नमस्ते ABC');
    expect(steps).toEqual([1, 2]);
    const error: unknown = await (api.fail() as Promise<unknown>).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ kind: 'busy', code: 'engine_busy', message: 'full' });
  });

  it('an abort rejects only its own call and cancels it at the holder', async () => {
    let finish!: (value: string) => void;
    const { follower, host } = connect({
      echo: async (text) => text,
      slow: () => new Promise((resolve) => (finish = resolve)),
      fail: async () => Promise.reject(new Error('no')),
    });
    const controller = new AbortController();
    const slow = follower.api<Comlink.Remote<Api>>(controller.signal).slow();
    const other = follower.api<Comlink.Remote<Api>>(new AbortController().signal).echo('still here');
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    await expect(slow).rejects.toMatchObject({ name: 'AbortError' });
    expect(await other).toBe('still here');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(host.aborted).toBe(1);
    finish('late');
  });

  it("the holder's tab going fails calls in flight with `crashed`, and later calls at once", async () => {
    const { follower } = connect({
      echo: async (text) => text,
      slow: () => new Promise(() => {}),
      fail: async () => Promise.reject(new Error('no')),
    });
    const api = follower.api<Comlink.Remote<Api>>(new AbortController().signal);
    const pending = api.slow();
    release();
    await expect(pending).rejects.toMatchObject({ kind: 'crashed', code: 'engine_crashed' });
    expect(follower.closed).toBe(true);
    await expect(api.echo('x')).rejects.toMatchObject({ kind: 'crashed' });
  });

  it('a holder that releases the engine tells the follower, whose calls in flight fail', async () => {
    const { follower, close } = connect({
      echo: async (text) => text,
      slow: () => new Promise(() => {}),
      fail: async () => Promise.reject(new Error('no')),
    });
    const pending = follower.api<Comlink.Remote<Api>>(new AbortController().signal).slow();
    await new Promise((resolve) => setTimeout(resolve, 10));
    close();
    await expect(pending).rejects.toMatchObject({ kind: 'crashed', message: expect.stringMatching(/released it/) });
  });
});

interface EngineApi {
  fail(): Promise<never>;
  hold(id: string): Promise<string>;
  echo(text: string): Promise<string>;
  /** Awaits its one event before answering, as the engine workers do. */
  stream(text: string, events: { step(n: number): Promise<void> }): Promise<string>;
}

describe("a follower calling the holder's engine worker", () => {
  afterEach(() => vi.unstubAllGlobals());

  /**
   * The holder's engine as it runs in a tab: a WorkerHost whose "worker" is a MessageChannel with
   * `exposeEngine` at its other end (the worker boundary's own code on both sides), served to a follower.
   */
  async function holderWithEngine() {
    const tabs = await aliveTabs();
    const log: string[] = [];
    const finish = new Map<string, () => void>();
    const handlers = {
      async fail(): Promise<never> {
        throw new EngineError(
          'too_large',
          'The messages are too long for the model.',
          'context_length_exceeded',
          'messages',
        );
      },
      async hold(signal: AbortSignal, id: string): Promise<string> {
        log.push(`start ${id}`);
        await new Promise<void>((resolve) => {
          finish.set(id, resolve);
          signal.addEventListener('abort', () => resolve());
        });
        log.push(signal.aborted ? `aborted ${id}` : `done ${id}`);
        signal.throwIfAborted();
        return id;
      },
      echo: async (_signal: AbortSignal, text: string) => text,
      async stream(_signal: AbortSignal, text: string, events: { step(n: number): Promise<void> }): Promise<string> {
        log.push(`step ${text}`);
        await events.step(1);
        return text;
      },
    };
    const host = new WorkerHost<EngineApi>({
      name: 'test',
      create: () => {
        const { port1, port2 } = new MessageChannel();
        exposeEngine(handlers, port2 as unknown as Comlink.Endpoint);
        return Object.assign(port1, { terminate: () => port1.close() }) as unknown as Worker;
      },
    });
    const channel = new MessageChannel();
    serveFollower(channel.port2, 'follower', host);
    const follower = new Follower(channel.port1, 'holder', 'test');
    const api = (signal = new AbortController().signal) => follower.api<Comlink.Remote<EngineApi>>(signal);
    return { host, api, log, finish, tabs };
  }

  it('an EngineError thrown in the worker reaches the follower as it reaches the holding page', async () => {
    const { host, api } = await holderWithEngine();
    const direct: unknown = await host.run((engine) => engine.fail()).catch((e: unknown) => e);
    const shared: unknown = await (api().fail() as Promise<unknown>).catch((e: unknown) => e);
    host.dispose();
    expect(direct).toBeInstanceOf(EngineError);
    expect(shared).toBeInstanceOf(EngineError);
    expect((shared as EngineError).toData()).toEqual((direct as EngineError).toData());
    expect((shared as EngineError).toData()).toEqual({
      kind: 'too_large',
      message: 'The messages are too long for the model.',
      code: 'context_length_exceeded',
      param: 'messages',
    });
    expect(toApiError(shared).status).toBe(413);
    expect(toApiError(shared).body).toEqual(toApiError(direct).body);
  });

  it("aborting one of a follower's calls cancels that call alone in the engine", async () => {
    const { host, api, log, finish } = await holderWithEngine();
    // Running: aborting it aborts the worker call's own signal; the call queued behind it runs next.
    const first = new AbortController();
    const a = api(first.signal).hold('a');
    const b = api().hold('b');
    await vi.waitFor(() => expect(log).toContain('start a'));
    first.abort();
    await expect(a).rejects.toMatchObject({ name: 'AbortError' });
    await vi.waitFor(() => expect(log).toContain('start b'));
    finish.get('b')!();
    expect(await b).toBe('b');
    // Queued: aborting it leaves the running call alone, and the queued one never starts.
    const fourth = new AbortController();
    const c = api().hold('c');
    const d = api(fourth.signal).hold('d');
    await vi.waitFor(() => expect(log).toContain('start c'));
    fourth.abort();
    await expect(d).rejects.toMatchObject({ name: 'AbortError' });
    finish.get('c')!();
    expect(await c).toBe('c');
    host.dispose();
    expect(log).toEqual(['start a', 'aborted a', 'start b', 'done b', 'start c', 'done c']);
  });

  it(
    "a follower's tab closing mid-stream leaves the holder's engine free for the next call",
    { timeout: 10_000 },
    async () => {
      const { host, api, log, tabs } = await holderWithEngine();
      // The follower's callback never answers: its tab is gone, its ports with it.
      void api().stream('a', Comlink.proxy({ step: () => new Promise<void>(() => {}) }));
      await vi.waitFor(() => expect(log).toContain('step a'));
      tabs.follower();
      expect(await host.run((engine) => engine.echo('next'))).toBe('next');
      host.dispose();
    },
  );
});
