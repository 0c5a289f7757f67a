import { describe, expect, it } from 'vitest';
import type { ChatDelta } from '../../../src/protocol/chat';
import { OutputText } from '../../../src/text/output';
import { HERMES_SYNTAX } from '../../../src/text/tool-calls';
import { llamaTokenizer } from './support';

const tokenizer = llamaTokenizer();
const decode = (ids: number[]) => tokenizer.decode(ids);

/** Feeds the tokens of `text` one by one, as generation would; returns the deltas and whether a stop string ended it. */
function run(text: string, stops: string[], tools = false) {
  const output = new OutputText(decode, stops, tools ? HERMES_SYNTAX : undefined);
  const deltas: ChatDelta[] = [];
  for (const id of tokenizer.encode(text)) {
    const step = output.push(id);
    deltas.push(...step.deltas);
    if (step.stopped) return { deltas, stopped: true, calls: output.toolCalls };
  }
  deltas.push(...output.finish());
  return { deltas, stopped: false, calls: output.toolCalls };
}

const content = (deltas: ChatDelta[]) => deltas.map((d) => d.content ?? '').join('');

describe('OutputText', () => {
  it('streams Hindi, Tamil, Bengali and emoji in whole characters', () => {
    const text = 'हिन्दी தமிழ் বাংলা 🙏🏽';
    const { deltas } = run(text, []);
    expect(content(deltas)).toBe(text);
    for (const delta of deltas) expect(delta.content).not.toContain('\uFFFD');
  });

  it('cuts at a stop string made of several tokens and never emits any of it', () => {
    const { deltas, stopped } = run('नमस्ते दुनिया। END OF TEXT and more', ['END OF']);
    expect(stopped).toBe(true);
    expect(content(deltas)).toBe('नमस्ते दुनिया। ');
  });

  it('turns a streamed Hermes tool call into tool_calls deltas', () => {
    const { deltas, calls } = run('<tool_call>\n{"name": "lookup", "arguments": {"q": "चाय"}}\n</tool_call>', [], true);
    expect(calls).toBe(1);
    expect(content(deltas)).toBe('');
    expect(deltas[0]!.tool_calls![0]).toMatchObject({
      index: 0,
      type: 'function',
      function: { name: 'lookup', arguments: '' },
    });
    expect(deltas[1]!.tool_calls![0]!.function.arguments).toBe('{"q":"चाय"}');
  });

  it('leaves tool-call-looking text alone when the request offered no tools', () => {
    const text = '<tool_call>{"name": "x"}</tool_call>';
    expect(content(run(text, []).deltas)).toBe(text);
  });
});
