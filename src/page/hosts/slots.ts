/** An engine that holds a model in memory and can let it go while it has no job. */
export interface Slot {
  readonly idle: boolean;
  /** Ends the engine's worker; its next job starts it again. */
  release(): void;
}

const GiB = 2 ** 30;

/**
 * `createVaani({ engineBudget })`'s default: half the device's memory as the browser reports it
 * (`navigator.deviceMemory`, which Chromium caps at 8), at least 1 GiB; 2 GiB where it is not reported.
 */
export function defaultEngineBudget(): number {
  const device = (globalThis.navigator as { deviceMemory?: number } | undefined)?.deviceMemory;
  return device ? Math.max(1, device / 2) * GiB : 2 * GiB;
}

/**
 * One slot per model engine in this tab, and a budget for the weights they hold together. An
 * engine reports its bytes after each job; when the engines of this tab hold more than the
 * budget, the idle ones used least recently are released (a busy engine never is, and neither is
 * the one that just ran, so one model larger than the budget still runs).
 */
export class EngineSlots {
  private readonly live = new Map<Slot, { bytes: number; used: number }>();
  /** What each engine held when it last ran: counted again as soon as it restarts. */
  private readonly known = new WeakMap<Slot, number>();
  private clock = 0;

  constructor(readonly budget: number = defaultEngineBudget()) {}

  /** The bytes the live engines hold. */
  get held(): number {
    let total = 0;
    for (const { bytes } of this.live.values()) total += bytes;
    return total;
  }

  /** An engine is starting: room is made for what it held last time. */
  starting(slot: Slot): void {
    this.live.set(slot, { bytes: this.known.get(slot) ?? 0, used: ++this.clock });
    this.fit(slot);
  }

  /** An engine finished a job holding `bytes`: it becomes the most recently used. */
  used(slot: Slot, bytes: number): void {
    if (!this.live.has(slot)) return; // released or gone while its report travelled
    this.known.set(slot, bytes);
    this.live.set(slot, { bytes, used: ++this.clock });
    this.fit(slot);
  }

  /** An engine's worker ended (released, crashed or disposed): its bytes no longer count. */
  gone(slot: Slot): void {
    this.live.delete(slot);
  }

  private fit(keep: Slot): void {
    let total = this.held;
    const oldestFirst = [...this.live.entries()].sort(([, a], [, b]) => a.used - b.used);
    for (const [slot, { bytes }] of oldestFirst) {
      if (total <= this.budget) return;
      if (slot === keep || !slot.idle) continue;
      this.live.delete(slot);
      total -= bytes;
      slot.release();
    }
  }
}
