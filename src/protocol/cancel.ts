import { EngineError } from './errors';

type NodePort = MessagePort & { ref?: () => void; unref?: () => void };

let yielding: { sender: MessagePort; receiver: NodePort; waiting: (() => void)[] } | undefined;

/**
 * Lets queued messages (a cancel, the host's ping) run, without setTimeout's 4 ms clamp: a message
 * through one channel kept for the worker's life (a new MessageChannel per decode step cost more).
 * In Node the channel holds the process open only while someone waits on it.
 */
export const yieldToEvents = () =>
  new Promise<void>((resolve) => {
    if (!yielding) {
      const channel = new MessageChannel();
      const state = { sender: channel.port2, receiver: channel.port1 as NodePort, waiting: [] as (() => void)[] };
      state.receiver.onmessage = () => {
        state.waiting.shift()?.();
        if (!state.waiting.length) state.receiver.unref?.();
      };
      yielding = state;
    }
    yielding.waiting.push(resolve);
    yielding.receiver.ref?.();
    yielding.sender.postMessage(null);
  });

/** What an aborted operation rejects with: the signal's reason when it is an Error, else an AbortError, as fetch does. */
export const abortError = (signal: AbortSignal): Error =>
  signal.reason instanceof Error ? signal.reason : new DOMException('The operation was aborted.', 'AbortError');

/**
 * The one cancellation contract inside a worker: each job gets a fresh token (`exposeEngine` makes
 * it), the page's `WorkerHost.run(job, signal)` cancels it when the signal aborts, and the job's
 * loops read it between steps: `cancelled`, `signal`, or `checkpoint()`, which yields first so
 * the cancel message can arrive.
 */
export class CancelToken {
  private readonly controller = new AbortController();

  get cancelled(): boolean {
    return this.controller.signal.aborted;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  cancel(): void {
    this.controller.abort(new EngineError('aborted', 'The request was cancelled.', 'cancelled'));
  }

  /** Yields to the event loop, then throws an `aborted` EngineError if the job was cancelled. */
  readonly checkpoint = async (): Promise<void> => {
    await yieldToEvents();
    if (this.cancelled) throw this.controller.signal.reason as EngineError;
  };

  /** Yields to the event loop, then tells whether the job was cancelled. */
  readonly stopped = async (): Promise<boolean> => {
    await yieldToEvents();
    return this.cancelled;
  };
}
