import * as Comlink from 'comlink';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EngineError } from '../../../../src/protocol/errors';
import type { EngineHost } from '../../../../src/page/hosts/engine-hosts';
import { Follower } from '../../../../src/page/share/follow';
import { serveFollower } from '../../../../src/page/share/serve';

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

describe('a follower and the holder serving it over a MessagePort', () => {
  let release: () => void;
  beforeEach(async () => {
    vi.stubGlobal('navigator', { locks: fakeLocks() });
    // Both tabs' alive locks; the holder's is held until the test lets it go.
    const hold = (name: string) =>
      new Promise<() => void>((granted) => {
        void navigator.locks.request(name, () => new Promise<void>((resolve) => granted(resolve)));
      });
    release = await hold('vaani:alive:holder');
    await hold('vaani:alive:follower');
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
      echo: async (text, events) => {
        events?.step(1);
        events?.step(2);
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
