import { describe, expect, it } from 'vitest';
import { yieldToEvents } from '../../../src/protocol/cancel';

describe('yieldToEvents', () => {
  it('lets a queued task run before it resumes, every time on its one channel', async () => {
    const order: string[] = [];
    for (let i = 0; i < 3; i++) {
      setImmediate(() => order.push(`task ${i}`));
      await yieldToEvents();
      await new Promise((resolve) => setImmediate(resolve));
      order.push(`resumed ${i}`);
    }
    expect(order).toEqual(['task 0', 'resumed 0', 'task 1', 'resumed 1', 'task 2', 'resumed 2']);
  });

  it('resumes concurrent waiters in the order they yielded', async () => {
    const resumed: number[] = [];
    await Promise.all([0, 1, 2, 3].map((i) => yieldToEvents().then(() => resumed.push(i))));
    expect(resumed).toEqual([0, 1, 2, 3]);
  });
});
