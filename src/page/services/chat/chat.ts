import type { ChatDelta, ChatEngine, ChatOutcome, ChatParams, ToolCall, ToolCallDelta } from '../../../protocol/chat';
import { Channel } from '../channel';

/** A running generation: its deltas as they come, its outcome, and how to stop it. */
export interface StartedChat {
  deltas: Channel<ChatDelta>;
  done: Promise<ChatOutcome>;
  /** The backend the engine reported (`x-vaani-backend`). */
  backend: string;
  stop: AbortController;
}

/**
 * Starts the engine and resolves once it has produced its first output (or finished), so that a
 * failure before any output can still go to the remote.
 */
export async function startChat(engine: ChatEngine, params: ChatParams, signal: AbortSignal): Promise<StartedChat> {
  const stop = new AbortController();
  signal.addEventListener('abort', () => stop.abort(signal.reason), { once: true });
  const deltas = new Channel<ChatDelta>();
  let backend = '';
  let firstOutput!: () => void;
  const started = new Promise<void>((resolve) => (firstOutput = resolve));
  const done = engine.complete(params, {
    signal: stop.signal,
    onStart: (info) => (backend = info.backend),
    onDelta: (delta) => {
      deltas.push(delta);
      firstOutput();
    },
  });
  done.then(
    () => deltas.close(),
    (error) => deltas.fail(error),
  );
  await Promise.race([started, done]);
  return { deltas, done, backend, stop };
}

/** Adds a delta's tool-call pieces to the calls being assembled (by their index). */
export function addToolCallParts(calls: ToolCall[], parts: ToolCallDelta[] = []): void {
  for (const part of parts) {
    const call = (calls[part.index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
    call.id ||= part.id ?? '';
    call.function.name += part.function.name ?? '';
    call.function.arguments += part.function.arguments ?? '';
  }
}
