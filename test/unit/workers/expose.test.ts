import * as Comlink from 'comlink';
import { describe, expect, it } from 'vitest';
import { exposeEngine } from '../../../src/workers/expose';

describe('exposeEngine', () => {
  it('answers each call once when a second copy of the worker exposes again on the same endpoint', async () => {
    const { port1, port2 } = new MessageChannel();
    const calls: string[] = [];
    exposeEngine({ run: (x: number) => (calls.push(`first ${x}`), x + 1) }, port1);
    exposeEngine({ run: (x: number) => (calls.push(`second ${x}`), x + 2) }, port1);
    const remote = Comlink.wrap<{ run(x: number): number; ping(): boolean }>(port2);
    expect(await remote.run(1)).toBe(2);
    expect(await remote.run(2)).toBe(3);
    expect(await remote.ping()).toBe(true);
    expect(calls).toEqual(['first 1', 'first 2']);
    port2.close();
    port1.close();
  });
});
