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
 * The one cancellation contract inside a worker: each call gets its own AbortSignal (`exposeEngine`
 * passes it first), the page's `WorkerHost.run(job, signal)` aborts it when the job's signal
 * aborts, and the job's loops read it between steps: `signal.aborted`, or `checkpoint(signal)` /
 * `stopped(signal)`, which yield first so the cancel message can arrive. `checkpoint` throws the
 * signal's reason (in a worker, an `aborted` EngineError).
 */
export async function checkpoint(signal: AbortSignal): Promise<void> {
  await yieldToEvents();
  signal.throwIfAborted();
}

/** Yields to the event loop, then tells whether the signal was aborted. */
export async function stopped(signal: AbortSignal): Promise<boolean> {
  await yieldToEvents();
  return signal.aborted;
}
