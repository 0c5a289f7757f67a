import { describe, expect, it } from 'vitest';
import type { ChatDelta } from '../../../src/protocol/chat';
import { OutputText } from '../../../src/common/text/output';
import type { ThinkingStart } from '../../../src/common/text/reasoning';
import { HERMES_SYNTAX } from '../../../src/common/text/tool-calls';
import { clusterCuts, llamaTokenizer, qwen3Tokenizer } from './support';

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

const qwen3 = qwen3Tokenizer();

/** As `run`, on Qwen3's tokenizer, with a thinking start. */
function runQwen3(text: string, stops: string[], options: { tools?: boolean; thinking?: ThinkingStart } = {}) {
  const output = new OutputText(
    (ids) => qwen3.decode(ids),
    stops,
    options.tools ? HERMES_SYNTAX : undefined,
    undefined,
    options.thinking,
  );
  const deltas: ChatDelta[] = [];
  for (const id of qwen3.encode(text)) {
    const step = output.push(id);
    deltas.push(...step.deltas);
    if (step.stopped) return { deltas, stopped: true, calls: output.toolCalls };
  }
  deltas.push(...output.finish());
  return { deltas, stopped: false, calls: output.toolCalls };
}

const pieces = (deltas: ChatDelta[], field: 'content' | 'reasoning_content') =>
  deltas.flatMap((delta) => (delta[field] ? [delta[field]] : []));

describe("OutputText on Qwen3's tokenizer", () => {
  const HINDI = 'नमस्ते, आप कैसे हैं? मैं ठीक हूँ। क्या आप हिन्दी बोलते हैं?';
  const TAMIL = 'வணக்கம், நீங்கள் எப்படி இருக்கிறீர்கள்? நான் நலமாக இருக்கிறேன்.';

  it('never ends a delta inside a grapheme cluster (Hindi, Tamil, emoji), and loses nothing', () => {
    for (const text of [HINDI, TAMIL, 'Family 👨‍👩‍👧‍👦 and 👍🏽 done']) {
      const { deltas } = runQwen3(text, []);
      expect(content(deltas)).toBe(text);
      expect(clusterCuts(pieces(deltas, 'content'))).toEqual([]);
      expect(deltas.length).toBeGreaterThan(5);
    }
  });

  it('still cuts at a stop string (inside a cluster too) and parses tool calls', () => {
    expect(runQwen3(HINDI, ['कैसे'])).toMatchObject({ stopped: true });
    expect(content(runQwen3(HINDI, ['कैसे']).deltas)).toBe('नमस्ते, आप ');
    // A stop string that ends inside a cluster cuts there (the text before it is whole characters).
    expect(content(runQwen3(HINDI, ['्ते']).deltas)).toBe('नमस');
    const call = runQwen3('ठीक है।\n<tool_call>\n{"name": "lookup", "arguments": {"q": "चाय"}}\n</tool_call>', [], {
      tools: true,
    });
    expect(call.calls).toBe(1);
    expect(content(call.deltas)).toBe('ठीक है।\n');
  });

  const THOUGHT = '<think>\nThe user greets me in Hindi: नमस्ते means hello.\n</think>\n\nनमस्ते! आप कैसे हैं?';

  it('puts a leading <think> block in reasoning_content, whole clusters, never in content', () => {
    const { deltas } = runQwen3(THOUGHT, [], { thinking: 'before' });
    expect(pieces(deltas, 'reasoning_content').join('')).toBe('The user greets me in Hindi: नमस्ते means hello.');
    expect(content(deltas)).toBe('नमस्ते! आप कैसे हैं?');
    expect(clusterCuts(pieces(deltas, 'reasoning_content'))).toEqual([]);
    expect(clusterCuts(pieces(deltas, 'content'))).toEqual([]);
    // Reasoning comes first, whole, before any content.
    const firstContent = deltas.findIndex((delta) => delta.content);
    expect(deltas.slice(firstContent).some((delta) => delta.reasoning_content)).toBe(false);
  });

  it('reads a prompt that opened <think> itself, applies stop strings and tool calls to the content only', () => {
    const opened = runQwen3(THOUGHT.replace('<think>\n', ''), [], { thinking: 'open' });
    expect(pieces(opened.deltas, 'reasoning_content').join('')).toBe('The user greets me in Hindi: नमस्ते means hello.');
    expect(content(opened.deltas)).toBe('नमस्ते! आप कैसे हैं?');
    // 'नमस्ते' is in the reasoning first: the stop string cuts the content, not the thinking.
    const stopped = runQwen3(THOUGHT, ['नमस्ते'], { thinking: 'before' });
    expect(stopped.stopped).toBe(true);
    expect(pieces(stopped.deltas, 'reasoning_content').join('')).toContain('नमस्ते means');
    expect(content(stopped.deltas)).toBe('');
    const thinkingCall = runQwen3(
      '<think>I could write <tool_call>{"name": "x", "arguments": {}}</tool_call></think>Hi',
      [],
      {
        tools: true,
        thinking: 'before',
      },
    );
    expect(thinkingCall.calls).toBe(0);
    expect(content(thinkingCall.deltas)).toBe('Hi');
  });

  it('keeps <think> as content where the template has no thinking mode, or the block does not start the answer', () => {
    expect(content(runQwen3(THOUGHT, []).deltas)).toBe(THOUGHT);
    expect(content(runQwen3(`Hi ${THOUGHT}`, [], { thinking: 'before' }).deltas)).toBe(`Hi ${THOUGHT}`);
  });

  it('gives an unfinished thought (the budget ran out) as reasoning, with no content', () => {
    const { deltas } = runQwen3('<think>\nLet me think about नमस्', [], { thinking: 'before' });
    expect(pieces(deltas, 'reasoning_content').join('')).toBe('Let me think about नमस्');
    expect(content(deltas)).toBe('');
  });
});
