/** The tags thinking models (Qwen3, DeepSeek-R1, QwQ) write their reasoning between. */
export const THINK_OPEN = '<think>';
export const THINK_CLOSE = '</think>';

/** Whether a chat template has a thinking mode (it writes or reads `</think>`). */
export const hasThinkingMode = (templateSource: string) => templateSource.includes(THINK_CLOSE);

/**
 * How an answer begins: `off` (no thinking mode: all text is content), `open` (the prompt ends inside
 * `<think>`, as templates that always think write it), or `before` (the model may open `<think>`).
 */
export type ThinkingStart = 'off' | 'open' | 'before';

export function thinkingStart(templateSource: string | undefined, prompt: string): ThinkingStart {
  if (templateSource === undefined || !hasThinkingMode(templateSource)) return 'off';
  return prompt.trimEnd().endsWith(THINK_OPEN) ? 'open' : 'before';
}

export interface ReasoningPiece {
  reasoning: string;
  content: string;
}

/** How many characters at the end of `text` could begin `tag`. */
function partialTail(text: string, tag: string): number {
  for (let n = Math.min(tag.length - 1, text.length); n > 0; n--) if (text.endsWith(tag.slice(0, n))) return n;
  return 0;
}

/**
 * Splits streamed text into the model's reasoning (a `<think>…</think>` block at the start of the
 * answer, without the tags and the whitespace around it) and the content after it. A block that
 * does not start the answer is content.
 */
export class ReasoningSplit {
  private state: 'before' | 'thinking' | 'after' | 'answer';
  private held = '';
  /** Whether the reasoning has written anything but whitespace yet. */
  private started = false;

  constructor(start: ThinkingStart) {
    this.state = start === 'off' ? 'answer' : start === 'open' ? 'thinking' : 'before';
  }

  /** Inside the thinking block (the next tokens are reasoning). */
  get thinking(): boolean {
    return this.state === 'thinking';
  }

  /** Whether the answer may still open a thinking block (nothing but whitespace written yet). */
  get mayThink(): boolean {
    return this.state === 'before';
  }

  /** Past any reasoning: the text now is (or is about to be) the answer. */
  get answering(): boolean {
    return this.state === 'answer';
  }

  push(piece: string): ReasoningPiece {
    let text = this.held + piece;
    this.held = '';
    let reasoning = '';
    for (;;) {
      if (this.state === 'answer') return { reasoning, content: text };
      if (this.state === 'before') {
        const lead = text.trimStart();
        if (lead.length < THINK_OPEN.length && THINK_OPEN.startsWith(lead)) {
          this.held = text;
          return { reasoning, content: '' };
        }
        if (lead.startsWith(THINK_OPEN)) {
          this.state = 'thinking';
          text = lead.slice(THINK_OPEN.length);
        } else this.state = 'answer';
        continue;
      }
      if (this.state === 'after') {
        text = text.trimStart();
        if (!text) return { reasoning, content: '' };
        this.state = 'answer';
        continue;
      }
      if (!this.started) {
        text = text.trimStart();
        this.started = text !== '';
      }
      const close = text.indexOf(THINK_CLOSE);
      if (close >= 0) {
        reasoning += text.slice(0, close).trimEnd();
        text = text.slice(close + THINK_CLOSE.length);
        this.state = 'after';
        continue;
      }
      const body = text.slice(0, text.length - partialTail(text, THINK_CLOSE));
      const kept = body.trimEnd().length;
      this.held = text.slice(kept);
      return { reasoning: reasoning + text.slice(0, kept), content: '' };
    }
  }

  /** What is held back, at the end of generation: an unfinished block stays reasoning. */
  flush(): ReasoningPiece {
    const rest = this.held;
    this.held = '';
    if (this.state === 'before') return { reasoning: '', content: rest };
    return this.state === 'thinking' ? { reasoning: rest, content: '' } : { reasoning: '', content: rest };
  }
}
