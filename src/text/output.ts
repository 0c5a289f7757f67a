import type { ChatDelta } from '../protocol/chat';
import { StreamingDecoder } from './detokenizer';
import { StopStrings } from './stop-strings';
import { ToolCallStream, type ToolCallSyntax } from './tool-calls';

/**
 * Generated tokens to chat deltas: whole characters only, stop strings cut (and never shown), and
 * tool calls parsed when the request offered tools and the model's syntax is known.
 */
export class OutputText {
  private readonly text: StreamingDecoder;
  private readonly stops: StopStrings;
  private readonly tools: ToolCallStream | undefined;

  constructor(decode: (ids: number[]) => string, stops: readonly string[], toolSyntax?: ToolCallSyntax) {
    this.text = new StreamingDecoder(decode);
    this.stops = new StopStrings(stops);
    this.tools = toolSyntax && new ToolCallStream(toolSyntax);
  }

  /** Tool calls emitted so far. */
  get toolCalls(): number {
    return this.tools?.calls ?? 0;
  }

  /** Adds a token; `stopped` when a stop string appeared (the deltas then end just before it). */
  push(token: number): { deltas: ChatDelta[]; stopped: boolean } {
    const scan = this.stops.push(this.text.push(token));
    const deltas = this.route(scan.text);
    if (scan.stopped) deltas.push(...(this.tools?.flush() ?? []));
    return { deltas, stopped: scan.stopped };
  }

  /** The held-back rest, at the end of generation. */
  finish(): ChatDelta[] {
    const scan = this.stops.push(this.text.flush());
    const rest = scan.stopped ? scan.text : scan.text + this.stops.flush();
    return [...this.route(rest), ...(this.tools?.flush() ?? [])];
  }

  private route(text: string): ChatDelta[] {
    if (this.tools) return this.tools.push(text);
    return text ? [{ content: text }] : [];
  }
}
