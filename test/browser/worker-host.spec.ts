import { expect, test } from '@playwright/test';
import type { toApiError } from '../../src/page/api/http/errors';
import type { WorkerHost } from '../../src/page/hosts/worker-host';

type Api = {
  sum(n: number): number;
  slow(ms: number): number;
  busy(ms: number): boolean;
  block(ms: number, announced: number): number;
  crash(): void;
  hang(): void;
  count(): number;
  pid: number;
};
declare global {
  interface Window {
    WorkerHost: typeof WorkerHost;
    toApiError: typeof toApiError;
    testWorkerURL: string;
  }
}

test.beforeEach(async ({ page }) => {
  await page.goto('/test/browser/pages/worker-host.html');
  await page.waitForFunction(() => document.title === 'ready');
});

test('a crashed worker fails its job with a 503 and the next job runs on a new worker', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const host = new window.WorkerHost<Api>({
      name: 'test',
      create: () => new Worker(window.testWorkerURL, { type: 'module' }),
    });
    const first = await host.run(async (api) => ({ sum: await api.sum(100), pid: await api.pid }));
    const crashed = await host
      .run((api) => api.crash())
      .catch((e) => ({ status: window.toApiError(e).status, code: e.code }));
    const next = await host.run(async (api) => ({ sum: await api.sum(10), pid: await api.pid }));
    host.dispose();
    return { first, crashed, next };
  });
  expect(result.first.sum).toBe(5050);
  expect(result.crashed).toEqual({ status: 503, code: 'engine_crashed' });
  expect(result.next.sum).toBe(55);
  expect(result.next.pid).not.toBe(result.first.pid);
});

test('a worker that stops answering is replaced after the stall limit', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const host = new window.WorkerHost<Api>({
      name: 'test',
      stallMs: 800,
      create: () => new Worker(window.testWorkerURL, { type: 'module' }),
    });
    const hung = await host.run((api) => api.hang()).catch((e) => e.code);
    const next = await host.run((api) => api.sum(3));
    host.dispose();
    return { hung, next };
  });
  expect(result).toEqual({ hung: 'engine_crashed', next: 6 });
});

test('a job that keeps the worker busy but reports progress runs past the stall limit', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const host = new window.WorkerHost<Api>({
      name: 'test',
      stallMs: 800,
      create: () => new Worker(window.testWorkerURL, { type: 'module' }),
    });
    const started = performance.now();
    const busy = await host.run((api) => api.busy(3000)).catch((e) => e.code);
    const ms = performance.now() - started;
    const hung = await host.run((api) => api.hang()).catch((e) => e.code);
    host.dispose();
    return { busy, ms, hung };
  });
  expect(result.busy).toBe(true);
  expect(result.ms).toBeGreaterThan(3000);
  expect(result.hung).toBe('engine_crashed');
});

test('a long blocking call it announced runs past the stall limit; past the announced time the worker is replaced', async ({
  page,
}) => {
  const result = await page.evaluate(async () => {
    const host = new window.WorkerHost<Api>({
      name: 'test',
      stallMs: 800,
      create: () => new Worker(window.testWorkerURL, { type: 'module' }),
    });
    const announced = await host.run((api) => api.block(2500, 5000)).catch((e) => e.code);
    const overran = await host.run((api) => api.block(6000, 1000)).catch((e) => e.code);
    const next = await host.run((api) => api.sum(4));
    host.dispose();
    return { announced, overran, next };
  });
  expect(result).toEqual({ announced: 2500, overran: 'engine_crashed', next: 10 });
});

test('jobs queue one at a time, past the bound they get a 429, aborted waiters leave the queue', async ({ page }) => {
  const result = await page.evaluate(async () => {
    const host = new window.WorkerHost<Api>({
      name: 'test',
      maxQueue: 2,
      create: () => new Worker(window.testWorkerURL, { type: 'module' }),
    });
    const order: number[] = [];
    const job = (n: number, signal?: AbortSignal) =>
      host.run(async (api) => {
        await api.slow(50);
        order.push(n);
        return n;
      }, signal);
    const running = job(1);
    const waitingA = job(2);
    const controller = new AbortController();
    const waitingB = job(3, controller.signal);
    const rejected = await job(4).catch((e) => ({ status: window.toApiError(e).status, code: e.code }));
    controller.abort();
    const abortedName = await waitingB.catch((e) => e.name);
    const afterAbort = job(5);
    const done = await Promise.all([running, waitingA, afterAbort]);
    host.dispose();
    return { rejected, abortedName, done, order };
  });
  expect(result.rejected).toEqual({ status: 429, code: 'engine_busy' });
  expect(result.abortedName).toBe('AbortError');
  expect(result.done).toEqual([1, 2, 5]);
  expect(result.order).toEqual([1, 2, 5]);
});

test('aborting a job cancels it in the worker, which stops at its next checkpoint and takes the next job', async ({
  page,
}) => {
  const result = await page.evaluate(async () => {
    const host = new window.WorkerHost<Api>({
      name: 'test',
      create: () => new Worker(window.testWorkerURL, { type: 'module' }),
    });
    const controller = new AbortController();
    const counting = host.run((api) => api.count(), controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort();
    const abortedName = await counting.catch((e) => e.name);
    const next = await host.run((api) => api.sum(4));
    host.dispose();
    return { abortedName, next };
  });
  expect(result).toEqual({ abortedName: 'AbortError', next: 10 });
});
