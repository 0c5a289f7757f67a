import type { ChatDelta, ChatEngine, ChatHooks, ChatOutcome, ChatParams } from '../../src/protocol/chat';
import type { EngineFactory } from '../../src/page/engines/_registry';

/**
 * A scripted engine for route tests: it replays the given pieces as deltas so that the route's
 * response shapes (JSON, SSE, usage, tool calls, abort) can be checked without a model.
 */
export function scriptedChat(
  pieces: (string | ChatDelta)[],
  options: {
    failBeforeOutput?: Error;
    delayMs?: number;
    finish?: ChatOutcome['finish_reason'];
    /** Model ids it answers (default chat-v2). */
    models?: string[];
  } = {},
) {
  const seen: ChatParams[] = [];
  const engine: ChatEngine & { dispose(): void } = {
    async complete(params: ChatParams, hooks: ChatHooks): Promise<ChatOutcome> {
      seen.push(params);
      if (options.failBeforeOutput) throw options.failBeforeOutput;
      hooks.onStart({ backend: 'script' });
      let sent = 0;
      for (const piece of pieces) {
        if (hooks.signal.aborted) break;
        if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
        hooks.onDelta(typeof piece === 'string' ? { content: piece } : piece);
        sent++;
      }
      return {
        finish_reason: options.finish ?? 'stop',
        usage: { prompt_tokens: 3, completion_tokens: sent, total_tokens: 3 + sent },
      };
    },
    dispose() {},
  };
  const factory: EngineFactory<'chat'> = {
    kind: 'chat',
    models: options.models ?? ['chat-v2'],
    info: () => ({ backends: ['script'] }),
    create: () => engine,
  };
  return { factory, seen };
}
