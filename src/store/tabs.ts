import type { FileProgress } from './types';

/** What every page and worker of the origin tells the others about the cache. */
export type StoreMessage =
  | { type: 'progress'; progress: FileProgress }
  | { type: 'cached'; url: string; model?: string }
  | { type: 'evicted' | 'deleted'; model: string }
  | { type: 'cleared' };

const CHANNEL = 'vaani-store';
let sender: BroadcastChannel | undefined;

/** Tells every listener of the origin, this context's own included (the sender is a separate channel object). */
export function broadcast(message: StoreMessage): void {
  if (typeof BroadcastChannel === 'undefined') return;
  (sender ??= new BroadcastChannel(CHANNEL)).postMessage(message);
}

/** Calls `onMessage` for every store message of the origin until the returned function is called. */
export function listen(onMessage: (message: StoreMessage) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent<StoreMessage>) => onMessage(event.data);
  return () => channel.close();
}

/**
 * Runs `job` holding the origin-wide lock of one file, so two tabs (or a tab and a worker) never
 * download it twice; while another holder has it, its progress is passed to `onWaitingProgress`.
 */
export async function withFileLock<T>(
  url: string,
  signal: AbortSignal | undefined,
  onWaitingProgress: (progress: FileProgress) => void,
  job: () => Promise<T>,
): Promise<T> {
  const locks = globalThis.navigator?.locks;
  if (!locks) return job();
  const stop = listen((message) => {
    if (message.type === 'progress' && message.progress.url === url) onWaitingProgress(message.progress);
  });
  let waiting = true;
  try {
    return await locks.request(`vaani-store:${url}`, { signal }, () => {
      stop();
      waiting = false;
      return job();
    });
  } finally {
    if (waiting) stop();
  }
}
