import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import { checkpoint } from '../../../src/protocol/cancel';
import { EngineError } from '../../../src/protocol/errors';
import { registerEngineErrors } from '../../../src/protocol/wire';
import { exposeEngine } from '../../../src/worker/host/expose';

describe('exposeEngine', () => {
  it('answers each call once when a second copy of the worker exposes again on the same endpoint', async () => {
    const { port1, port2 } = new MessageChannel();
    const calls: string[] = [];
    exposeEngine({ run: (_signal: AbortSignal, x: number) => (calls.push(`first ${x}`), x + 1) }, port1);
    exposeEngine({ run: (_signal: AbortSignal, x: number) => (calls.push(`second ${x}`), x + 2) }, port1);
    const remote = Comlink.wrap<{ run(x: number): number; ping(): boolean }>(port2);
    expect(await remote.run(1)).toBe(2);
    expect(await remote.run(2)).toBe(3);
    expect(await remote.ping()).toBe(true);
    expect(calls).toEqual(['first 1', 'first 2']);
    port2.close();
    port1.close();
  });
});

describe('exposeEngine: one AbortSignal per call', () => {
  it('passes each call a fresh signal first; cancel aborts the running one with an aborted EngineError', async () => {
    const { port1, port2 } = new MessageChannel();
    const signals: AbortSignal[] = [];
    exposeEngine(
      {
        async wait(signal: AbortSignal) {
          signals.push(signal);
          for (;;) await checkpoint(signal);
        },
        now: (signal: AbortSignal) => (signals.push(signal), signal.aborted),
      },
      port1,
    );
    registerEngineErrors();
    const remote = Comlink.wrap<{ wait(): Promise<void>; now(): boolean; cancel(): void }>(port2);
    const waiting = remote.wait().catch((reason: unknown) => reason);
    await expect.poll(() => signals.length).toBe(1);
    await remote.cancel();
    const error = await waiting;
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ kind: 'aborted', code: 'cancelled' });
    expect(await remote.now()).toBe(false);
    expect(signals[1]).not.toBe(signals[0]);
    port2.close();
    port1.close();
  });
});
