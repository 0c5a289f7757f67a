import type { ChatDelta, ChatEngine, ChatOutcome, ChatParams } from '../../../../src/protocol/chat';
import type { EngineFactory } from '../../../../src/page/engines/_registry';

export const callDelta = (index: number, name: string, args: string): ChatDelta => ({
  tool_calls: [{ index, id: `call_${index}`, type: 'function', function: { name, arguments: args } }],
});

/**
 * An engine that answers its n-th request with `answers[n]` (the last one again after that), ending
 * with `finishes[n]` if given (else tool_calls or stop).
 */
export function stepsEngine(
  answers: ChatDelta[][],
  models = ['agent-v1', 'chat-v2'],
  finishes: ChatOutcome['finish_reason'][] = [],
) {
  const seen: ChatParams[] = [];
  const engine: ChatEngine & { dispose(): void } = {
    async complete(params, hooks) {
      const step = Math.min(seen.length, answers.length - 1);
      const answer = answers[step]!;
      seen.push(structuredClone(params));
      hooks.onStart({ backend: 'script' });
      for (const delta of answer) hooks.onDelta(delta);
      const calls = answer.some((delta) => delta.tool_calls);
      return {
        finish_reason: finishes[step] ?? (calls ? 'tool_calls' : 'stop'),
        usage: { prompt_tokens: 10, completion_tokens: answer.length, total_tokens: 10 + answer.length },
      };
    },
    dispose() {},
  };
  const factory: EngineFactory<'chat'> = {
    kind: 'chat',
    models,
    info: () => ({ backends: ['script'] }),
    create: () => engine,
  };
  return { engine, factory, seen };
}
