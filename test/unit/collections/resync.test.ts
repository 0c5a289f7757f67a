import { afterEach, describe, expect, it, vi } from 'vitest';
import { Resync } from '../../../src/worker/collections/resync';

const open: { close(): void }[] = [];
afterEach(() => {
  for (const channel of open.splice(0)) channel.close();
});

describe('Resync', () => {
  it("posts the message as is on '<db>-changes' and applies others' one at a time, in order", async () => {
    const log: string[] = [];
    const raw = new BroadcastChannel('resync-test-changes');
    const seen: unknown[] = [];
    raw.onmessage = (event: MessageEvent) => seen.push(event.data);
    const mine = new Resync<{ changed: string[] }>('resync-test', () => void log.push('self'));
    const other = new Resync<{ changed: string[] }>('resync-test', async ({ changed }) => {
      log.push(`start ${changed.join()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      log.push(`end ${changed.join()}`);
      if (changed[0] === 'a') throw new Error('a failed apply does not stop the next');
    });
    open.push(raw, mine, other);
    mine.announce({ changed: ['a'] });
    mine.announce({ changed: ['b', 'c'] });
    await vi.waitFor(() => expect(log).toContain('start b,c'));
    await other.settled();
    expect(log).toEqual(['start a', 'end a', 'start b,c', 'end b,c']);
    expect(seen).toEqual([{ changed: ['a'] }, { changed: ['b', 'c'] }]);
  });
});
