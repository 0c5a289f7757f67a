/**
 * Cross-tab resync of a collection: after a committed write a tab announces a message on the
 * BroadcastChannel `${db}-changes`; the others apply it one at a time, in arrival order. The
 * message shapes are part of the contract between tabs (two builds may share a database).
 */
export class Resync<M> {
  private chain: Promise<unknown> = Promise.resolve();
  private readonly channel: BroadcastChannel | undefined;

  constructor(db: string, apply: (message: M) => Promise<void> | void) {
    this.channel = typeof BroadcastChannel === 'undefined' ? undefined : new BroadcastChannel(`${db}-changes`);
    this.channel?.addEventListener('message', (event: MessageEvent<M>) => {
      this.chain = this.chain.then(() => apply(event.data)).catch(() => undefined);
    });
  }

  /** Resolves once every message received so far is applied. */
  async settled(): Promise<void> {
    await this.chain;
  }

  /** Tells the other tabs (never this one) about a committed write. */
  announce(message: M): void {
    this.channel?.postMessage(message);
  }

  /** Stops listening (tests; a worker's channel lives as long as it does). */
  close(): void {
    this.channel?.close();
  }
}
