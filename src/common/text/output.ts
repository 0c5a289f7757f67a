import type { ChatDelta } from '../../protocol/chat';
import type { BoundaryCut } from './boundary';
import { GraphemeHold, StreamingDecoder } from './detokenizer';
import { ReasoningSplit, type ThinkingStart } from './reasoning';
import { StopStrings } from './stop-strings';
import { ToolCallStream, type ToolCallSyntax } from './tool-calls';

/**
 * Generated tokens to chat deltas: whole grapheme clusters only, a leading `<think>…</think>` block
 * as `reasoning_content`, stop strings cut from the content (and never shown), tool calls parsed
 * from it when the request offered tools and the model's syntax is known, code cut at a natural
 * boundary when asked.
 */
export class OutputText {
  private readonly text: StreamingDecoder;
  private readonly split: ReasoningSplit;
  private readonly stops: StopStrings;
  private readonly tools: ToolCallStream | undefined;
  private readonly shownReasoning = new GraphemeHold();
  private readonly shownContent = new GraphemeHold();

  /** `callsFirst`: calls can only open the answer (see ToolCallStream). */
  constructor(
    decode: (ids: number[]) => string,
    stops: readonly string[],
    toolSyntax?: ToolCallSyntax,
    private readonly boundary?: BoundaryCut,
    thinking: ThinkingStart = 'off',
    callsFirst = false,
  ) {
    this.text = new StreamingDecoder(decode);
    this.split = new ReasoningSplit(thinking);
    this.stops = new StopStrings(stops);
    this.tools = toolSyntax && new ToolCallStream(toolSyntax, callsFirst);
  }

  /** Tool calls emitted so far. */
  get toolCalls(): number {
    return this.tools?.calls ?? 0;
  }

  /** Inside the thinking block: the next token is reasoning. */
  get thinking(): boolean {
    return this.split.thinking;
  }

  /** Nothing but whitespace written yet, so the answer may still open a thinking block. */
  get mayThink(): boolean {
    return this.split.mayThink;
  }

  /** The text so far is the answer, or may be (no thinking block open or closed). */
  get inAnswer(): boolean {
    return this.split.answering || this.split.mayThink;
  }

  /** Whether generation ended inside a tool call that could not be read (dropped, never shown as text). */
  get callCut(): boolean {
    return this.tools?.cut ?? false;
  }

  /** Adds a token; `stopped` when a stop string (or the boundary) appeared (the deltas then end just before it). */
  push(token: number): { deltas: ChatDelta[]; stopped: boolean } {
    const piece = this.split.push(this.text.push(token));
    const deltas = this.reasoning(piece.reasoning, !this.split.thinking);
    const scan = this.stops.push(piece.content);
    const text = this.boundary ? this.boundary.push(scan.text) : scan.text;
    const stopped = scan.stopped || this.boundary?.stopped === true;
    deltas.push(...this.content(text, stopped));
    if (stopped) deltas.push(...(this.tools?.flush() ?? []));
    return { deltas, stopped };
  }

  /** The held-back rest, at the end of generation. */
  finish(): ChatDelta[] {
    const last = this.split.push(this.text.flush());
    const held = this.split.flush();
    const deltas = this.reasoning(last.reasoning + held.reasoning, true);
    const scan = this.stops.push(last.content + held.content);
    const content = scan.stopped ? scan.text : scan.text + this.stops.flush();
    const kept = this.boundary ? this.boundary.push(content) + this.boundary.finish() : content;
    return [...deltas, ...this.content(kept, true), ...(this.tools?.flush() ?? [])];
  }

  private reasoning(text: string, ended: boolean): ChatDelta[] {
    const shown = this.shownReasoning.push(text) + (ended ? this.shownReasoning.flush() : '');
    return shown ? [{ reasoning_content: shown }] : [];
  }

  private content(text: string, ended: boolean): ChatDelta[] {
    const shown = this.shownContent.push(text) + (ended ? this.shownContent.flush() : '');
    if (this.tools) return this.tools.push(shown);
    return shown ? [{ content: shown }] : [];
  }
}
