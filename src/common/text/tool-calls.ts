import type { ChatDelta } from '../../protocol/chat';
import { randomId } from '../ids';

/** How a model family writes a tool call in its output. */
export interface ToolCallSyntax {
  open: string;
  close: string;
}

/** Qwen2.5 / Qwen3 / Hermes: `<tool_call>{"name": …, "arguments": {…}}</tool_call>`. */
export const HERMES_SYNTAX: ToolCallSyntax = { open: '<tool_call>', close: '</tool_call>' };

const SYNTAXES: readonly ToolCallSyntax[] = [HERMES_SYNTAX];

/** The tool-call syntax a chat template teaches its model, if it is one we can parse. */
export const toolCallSyntaxOf = (template: string): ToolCallSyntax | undefined =>
  SYNTAXES.find((syntax) => template.includes(syntax.open));

const callId = () => randomId('call_', 12);

function parseCall(body: string): { name: string; arguments: string } | undefined {
  try {
    const call: unknown = JSON.parse(body);
    if (typeof call !== 'object' || call === null) return undefined;
    const { name, arguments: args, parameters } = call as Record<string, unknown>;
    if (typeof name !== 'string' || !name) return undefined;
    const value = args ?? parameters ?? {};
    return { name, arguments: typeof value === 'string' ? value : JSON.stringify(value) };
  } catch {
    return undefined;
  }
}

/** Whether JSON text stops inside a string or an open object or array (so a close tag in it is the call's text). */
function unfinishedJson(text: string): boolean {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (const ch of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') depth++;
    else if (ch === '}' || ch === ']') depth--;
  }
  return inString || depth > 0;
}

const partialTail = (text: string, marker: string) => {
  for (let n = Math.min(marker.length - 1, text.length); n > 0; n--) if (text.endsWith(marker.slice(0, n))) return n;
  return 0;
};

/**
 * Splits streamed model text into content deltas and OpenAI-style tool_calls deltas: a call's
 * first delta carries index, id, type and name; the next carries its arguments. Nothing from an
 * open tag on is shown until the call is read, so its markup never streams as text. Text that
 * only looks like a call (closed, with bad JSON) is passed on as content. Whitespace around calls
 * is dropped.
 */
export class ToolCallStream {
  private buffer = '';
  private inCall = false;
  /** The call's text before a close tag that sat inside its JSON (a string may hold `</tool_call>`). */
  private callBody = '';
  private pendingSpace = '';
  calls = 0;
  /** Whether the text ended inside a call that could not be read (it is dropped). */
  cut = false;
  /** The answer is not calls (see `callsFirst`): everything is content. */
  private plain = false;

  /**
   * `callsFirst`: calls can only open the answer (tools offered with a JSON answer format: the answer
   * is calls or JSON), so an answer that starts otherwise is all content, a tag in a JSON string too.
   */
  constructor(
    private readonly syntax: ToolCallSyntax,
    private readonly callsFirst = false,
  ) {}

  push(piece: string): ChatDelta[] {
    if (this.plain) return this.content(piece, false);
    this.buffer += piece;
    const start = this.buffer.trimStart();
    if (
      this.callsFirst &&
      !this.calls &&
      !this.inCall &&
      start &&
      !this.syntax.open.startsWith(start.slice(0, this.syntax.open.length))
    ) {
      this.plain = true;
      const text = this.buffer;
      this.buffer = '';
      return this.content(text, false);
    }
    const out: ChatDelta[] = [];
    for (;;) {
      const marker = this.inCall ? this.syntax.close : this.syntax.open;
      const at = this.buffer.indexOf(marker);
      if (at < 0) break;
      const before = this.buffer.slice(0, at);
      this.buffer = this.buffer.slice(at + marker.length);
      if (this.inCall && unfinishedJson(this.callBody + before)) {
        this.callBody += before + marker;
        continue;
      }
      if (this.inCall) out.push(...this.finishCall(this.callBody + before));
      else out.push(...this.content(before, true));
      this.inCall = !this.inCall;
    }
    if (!this.inCall) {
      const keep = partialTail(this.buffer, this.syntax.open);
      out.push(...this.content(this.buffer.slice(0, this.buffer.length - keep), false));
      this.buffer = this.buffer.slice(this.buffer.length - keep);
    }
    return out;
  }

  /**
   * Ends the stream: an unclosed call (the budget ran out, maybe inside its close tag) is parsed if
   * it can be, else dropped and `cut` set (**Choice**: a half-written call is neither a call nor text).
   */
  flush(): ChatDelta[] {
    const rest = this.callBody + this.buffer;
    this.buffer = '';
    this.callBody = '';
    if (!this.inCall) return this.content(rest, true);
    this.inCall = false;
    const call = parseCall(rest.slice(0, rest.length - partialTail(rest, this.syntax.close)).trim());
    if (call) return this.callDeltas(call);
    this.cut = true;
    return [];
  }

  private finishCall(body: string): ChatDelta[] {
    this.callBody = '';
    const call = parseCall(body.trim());
    return call ? this.callDeltas(call) : this.content(this.syntax.open + body + this.syntax.close, true);
  }

  private callDeltas(call: { name: string; arguments: string }): ChatDelta[] {
    const index = this.calls++;
    this.pendingSpace = '';
    return [
      { tool_calls: [{ index, id: callId(), type: 'function', function: { name: call.name, arguments: '' } }] },
      { tool_calls: [{ index, function: { arguments: call.arguments } }] },
    ];
  }

  private content(text: string, beforeCall: boolean): ChatDelta[] {
    const all = this.pendingSpace + text;
    if (!all.trim()) {
      this.pendingSpace = beforeCall ? '' : all;
      return [];
    }
    this.pendingSpace = '';
    return [{ content: all }];
  }
}
