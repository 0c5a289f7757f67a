import { describe, expect, it, vi } from 'vitest';
import { EngineSlots, defaultEngineBudget, type Slot } from '../../../src/page/hosts/slots';

/** A slot that records its releases; `busy` engines may not be released. */
function engine(name: string, released: string[]) {
  const slot = {
    busy: false,
    get idle() {
      return !slot.busy;
    },
    release: () => released.push(name),
  };
  return slot satisfies Slot;
}

describe('EngineSlots', () => {
  it('releases the idle engines used least recently until the held bytes fit the budget', () => {
    const released: string[] = [];
    const slots = new EngineSlots(100);
    const [a, b, c] = ['a', 'b', 'c'].map((name) => engine(name, released));
    for (const slot of [a!, b!]) {
      slots.starting(slot);
      slots.used(slot, 40);
    }
    slots.used(a!, 40); // a is now more recent than b
    slots.starting(c!);
    expect(released).toEqual([]); // c's size is unknown until it reports
    slots.used(c!, 40);
    expect(released).toEqual(['b']);
    expect(slots.held).toBe(80);
  });

  it('never releases a busy engine or the one that just ran, so a model larger than the budget still runs', () => {
    const released: string[] = [];
    const slots = new EngineSlots(100);
    const [a, b] = ['a', 'b'].map((name) => engine(name, released));
    slots.starting(a!);
    slots.used(a!, 60);
    a!.busy = true;
    slots.starting(b!);
    slots.used(b!, 500);
    expect(released).toEqual([]);
    a!.busy = false;
    slots.used(b!, 500);
    expect(released).toEqual(['a']);
    expect(slots.held).toBe(500);
  });

  it('makes room for what a restarting engine held last time before it loads again', () => {
    const released: string[] = [];
    const slots = new EngineSlots(100);
    const [a, b] = ['a', 'b'].map((name) => engine(name, released));
    slots.starting(a!);
    slots.used(a!, 70);
    slots.gone(a!); // released or crashed
    slots.starting(b!);
    slots.used(b!, 70);
    slots.starting(a!);
    expect(released).toEqual(['b']);
  });

  it('ignores a report from an engine that is gone', () => {
    const released: string[] = [];
    const slots = new EngineSlots(10);
    const a = engine('a', released);
    slots.starting(a);
    slots.gone(a);
    slots.used(a, 1000);
    expect(slots.held).toBe(0);
  });

  it('defaults to half the reported device memory, at least 1 GiB, 2 GiB where unreported', () => {
    const GiB = 2 ** 30;
    try {
      vi.stubGlobal('navigator', { deviceMemory: 8 });
      expect(defaultEngineBudget()).toBe(4 * GiB);
      vi.stubGlobal('navigator', { deviceMemory: 0.5 });
      expect(defaultEngineBudget()).toBe(GiB);
      vi.stubGlobal('navigator', {});
      expect(defaultEngineBudget()).toBe(2 * GiB);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
