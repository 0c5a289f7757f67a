/** Where a code completion stops by itself: the end of the cursor's line, or the end of its block. */
export type Boundary = 'line' | 'block';

const indentOf = (line: string) => line.length - line.trimStart().length;

/**
 * Cuts streamed completion text at a natural boundary. `line`: the first newline after some text.
 * `block`: before the first line indented less than the block's first line (the cursor's line when
 * the completion writes on it, else the first new line), or at the second blank line in a row. Whitespace after a newline is held back until the line's first
 * character says whether the line stays.
 */
export class BoundaryCut {
  private line: string;
  private lineHasText: boolean;
  private held = '';
  private base: number | undefined;
  private blankRun = 0;
  private sawText = false;
  private onCursorLine = true;
  stopped = false;

  /** `before`: the text before the completion (its last line is the cursor's line). */
  constructor(
    readonly kind: Boundary,
    before: string,
  ) {
    this.line = before.slice(before.lastIndexOf('\n') + 1);
    this.lineHasText = this.line.trim() !== '';
  }

  /** The part of `text` that stays; `stopped` once the boundary is reached (nothing more stays). */
  push(text: string): string {
    let out = '';
    for (const ch of text) {
      if (this.stopped) break;
      if (this.kind === 'line') {
        if (ch === '\n' && this.sawText) this.stopped = true;
        else out += ch;
        if (ch.trim()) this.sawText = true;
        continue;
      }
      if (ch === '\n') {
        this.blankRun = this.lineHasText ? 0 : this.blankRun + 1;
        if (this.base !== undefined && this.blankRun >= 2) {
          this.stopped = true;
          break;
        }
        this.held += ch;
        this.onCursorLine = false;
        this.line = '';
        this.lineHasText = false;
        continue;
      }
      this.line += ch;
      if (ch.trim() && this.onCursorLine) this.base ??= indentOf(this.line);
      if (!ch.trim() || this.lineHasText) {
        if (this.held) this.held += ch;
        else out += ch;
        continue;
      }
      this.lineHasText = true;
      const indent = indentOf(this.line);
      if (this.base === undefined) this.base = indent;
      else if (indent < this.base) {
        this.stopped = true;
        break;
      }
      out += this.held + ch;
      this.held = '';
    }
    return out;
  }

  /** Held-back whitespace at the end of generation. */
  finish(): string {
    const rest = this.stopped ? '' : this.held;
    this.held = '';
    return rest;
  }
}
