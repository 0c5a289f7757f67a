import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A worker constructor that records what it was given. */
class FakeWorker {
  constructor(
    readonly url: unknown,
    readonly options?: object,
  ) {}
}
class FakeSharedWorker extends FakeWorker {}

/** Trusted Types as a browser enforcing `require-trusted-types-for 'script'` offers them: values wrapped by a policy's rules. */
function fakeTrustedTypes(refuse?: string) {
  const names: string[] = [];
  return {
    names,
    createPolicy(name: string, rules: { createHTML(s: string): string; createScriptURL(s: string): string }) {
      if (refuse) throw new TypeError(refuse);
      names.push(name);
      return {
        createHTML: (html: string) => ({ trustedHTML: rules.createHTML(html) }),
        createScriptURL: (url: string) => ({ trustedScriptURL: rules.createScriptURL(url) }),
      };
    },
  };
}

/** A fresh copy of the module: its policy is created once per realm, so each test gets a new one. */
async function load() {
  vi.resetModules();
  return import('../../../src/common/trusted-types');
}

const start = () => new Worker(new URL('/assets/chat.worker.js', location.href), { type: 'module' });

beforeEach(() => {
  vi.stubGlobal('location', new URL('http://127.0.0.1:5211/app/index.html'));
  vi.stubGlobal('Worker', FakeWorker);
  vi.stubGlobal('SharedWorker', FakeSharedWorker);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

describe('startTrusted', () => {
  it('without Trusted Types starts the worker from its plain URL', async () => {
    const { startTrusted, vaaniPolicy } = await load();
    const worker = startTrusted(start) as unknown as FakeWorker;
    expect(worker).toBeInstanceOf(FakeWorker);
    expect(String(worker.url)).toBe('http://127.0.0.1:5211/assets/chat.worker.js');
    expect(vaaniPolicy()).toBeNull();
  });

  it('passes Worker and SharedWorker URLs through the `vaani` policy and restores the globals', async () => {
    const trustedTypes = fakeTrustedTypes();
    vi.stubGlobal('trustedTypes', trustedTypes);
    const { startTrusted } = await load();
    const worker = startTrusted(start) as unknown as FakeWorker;
    expect(worker).toBeInstanceOf(FakeWorker);
    expect(worker.url).toEqual({ trustedScriptURL: 'http://127.0.0.1:5211/assets/chat.worker.js' });
    expect(worker.options).toEqual({ type: 'module' });
    const shared = startTrusted(() => new SharedWorker('/assets/broker.js', { name: 'b' })) as unknown as FakeWorker;
    expect(shared).toBeInstanceOf(FakeSharedWorker);
    expect(shared.url).toEqual({ trustedScriptURL: 'http://127.0.0.1:5211/assets/broker.js' });
    expect(trustedTypes.names).toEqual(['vaani']);
    expect(globalThis.Worker).toBe(FakeWorker);
    expect(globalThis.SharedWorker).toBe(FakeSharedWorker);
    // Another origin is not blessed: it reaches the browser as given, which refuses it where Trusted Types are required.
    const other = startTrusted(() => new Worker('https://cdn.example/evil.js')) as unknown as FakeWorker;
    expect(other.url).toBe('https://cdn.example/evil.js');
    expect(globalThis.Worker).toBe(FakeWorker);
  });

  it('the policy makes no script URL outside a start, nor for another origin, blob: or data:', async () => {
    vi.stubGlobal('trustedTypes', fakeTrustedTypes());
    const { startTrusted, vaaniPolicy } = await load();
    const policy = vaaniPolicy()!;
    expect(() => policy.createScriptURL('/assets/chat.worker.js')).toThrow(/only for its own workers/);
    for (const url of ['https://cdn.example/x.js', 'blob:http://127.0.0.1:5211/0b2c', 'data:text/javascript,1']) {
      expect(() => startTrusted(() => policy.createScriptURL(url))).toThrow(/only for its own workers/);
      expect((startTrusted(() => new Worker(url)) as unknown as FakeWorker).url).toBe(url);
    }
    expect(policy.createHTML('<b>x</b>')).toEqual({ trustedHTML: '<b>x</b>' });
  });

  it('where the page refuses the name `vaani`, the worker error says so', async () => {
    vi.stubGlobal('trustedTypes', fakeTrustedTypes('Policy "vaani" disallowed.'));
    vi.stubGlobal(
      'Worker',
      class {
        constructor() {
          throw new TypeError("This document requires 'TrustedScriptURL' assignment.");
        }
      },
    );
    const { startTrusted, vaaniPolicy } = await load();
    expect(vaaniPolicy()).toBeNull();
    expect(() => startTrusted(start)).toThrow(/TrustedScriptURL.*policy was refused: Policy "vaani" disallowed/);
  });
});

describe('trustWorkerStarts', () => {
  it("in a worker, libraries' own same-origin workers start through the policy; blob: goes to the browser as given", async () => {
    vi.stubGlobal('WorkerGlobalScope', class {});
    vi.stubGlobal('trustedTypes', fakeTrustedTypes());
    const { trustWorkerStarts } = await load();
    trustWorkerStarts();
    trustWorkerStarts();
    const thread = new Worker(new URL('/assets/ort.bundle.min.js', location.href), { name: 'em-pthread' });
    expect(thread).toBeInstanceOf(Worker);
    expect(thread).toBeInstanceOf(FakeWorker);
    expect((thread as unknown as FakeWorker).url).toEqual({
      trustedScriptURL: 'http://127.0.0.1:5211/assets/ort.bundle.min.js',
    });
    // Not blessed: a page without Trusted Types (the demo under a dev server, libFLAC's blob worker) still starts it.
    expect((new Worker('blob:http://127.0.0.1:5211/0b2c') as unknown as FakeWorker).url).toBe(
      'blob:http://127.0.0.1:5211/0b2c',
    );
  });

  it('leaves a page (no WorkerGlobalScope) untouched', async () => {
    vi.stubGlobal('trustedTypes', fakeTrustedTypes());
    const { trustWorkerStarts } = await load();
    trustWorkerStarts();
    expect(globalThis.Worker).toBe(FakeWorker);
  });
});
