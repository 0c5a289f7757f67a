import type { ChatDelta } from '../protocol/chat';
import type { BoundaryCut } from './boundary';
import { StreamingDecoder } from './detokenizer';
import { StopStrings } from './stop-strings';
import { ToolCallStream, type ToolCallSyntax } from './tool-calls';

/**
 * Generated tokens to chat deltas: whole characters only, stop strings cut (and never shown), and
 * tool calls parsed when the request offered tools and the model's syntax is known, code cut at a
 * natural boundary when asked.
 */
export class OutputText {
  private readonly text: StreamingDecoder;
  private readonly stops: StopStrings;
  private readonly tools: ToolCallStream | undefined;

  constructor(
    decode: (ids: number[]) => string,
    stops: readonly string[],
    toolSyntax?: ToolCallSyntax,
    private readonly boundary?: BoundaryCut,
  ) {
    this.text = new StreamingDecoder(decode);
    this.stops = new StopStrings(stops);
    this.tools = toolSyntax && new ToolCallStream(toolSyntax);
  }

  /** Tool calls emitted so far. */
  get toolCalls(): number {
    return this.tools?.calls ?? 0;
  }

  /** Adds a token; `stopped` when a stop string (or the boundary) appeared (the deltas then end just before it). */
  push(token: number): { deltas: ChatDelta[]; stopped: boolean } {
    const scan = this.stops.push(this.text.push(token));
    const text = this.boundary ? this.boundary.push(scan.text) : scan.text;
    const stopped = scan.stopped || this.boundary?.stopped === true;
    const deltas = this.route(text);
    if (stopped) deltas.push(...(this.tools?.flush() ?? []));
    return { deltas, stopped };
  }

  /** The held-back rest, at the end of generation. */
  finish(): ChatDelta[] {
    const scan = this.stops.push(this.text.flush());
    const rest = scan.stopped ? scan.text : scan.text + this.stops.flush();
    const kept = this.boundary ? this.boundary.push(rest) + this.boundary.finish() : rest;
    return [...this.route(kept), ...(this.tools?.flush() ?? [])];
  }

  private route(text: string): ChatDelta[] {
    if (this.tools) return this.tools.push(text);
    return text ? [{ content: text }] : [];
  }
}
