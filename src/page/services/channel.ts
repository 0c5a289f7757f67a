/** A one-consumer async queue: pushed values come out in order until close or fail. */
export class Channel<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private ended = false;
  private error: unknown;
  private wake: (() => void) | undefined;

  push(item: T): void {
    this.items.push(item);
    this.wake?.();
  }

  close(): void {
    this.ended = true;
    this.wake?.();
  }

  fail(error: unknown): void {
    this.error = error ?? new Error('failed');
    this.close();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      while (this.items.length) yield this.items.shift()!;
      if (this.error !== undefined) throw this.error;
      if (this.ended) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}
