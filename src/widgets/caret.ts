type TextField = HTMLInputElement | HTMLTextAreaElement;

const isTextField = (element: Element): element is TextField =>
  element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement;

/** `text` with a space before it when it would otherwise run into the previous word, and after it likewise. */
function spaced(before: string, text: string, after: string): string {
  const lead = before && !/\s$/.test(before) && !/^[\s.,!?;:।]/.test(text) ? ' ' : '';
  const trail = after && !/^\s/.test(after) ? ' ' : '';
  return `${lead}${text}${trail}`;
}

/**
 * Remembers where the caret was in a contenteditable element, since pressing a button may move the
 * selection; inputs and textareas keep their own selection.
 */
export class CaretKeeper {
  private range: Range | undefined;
  private readonly onChange = () => {
    const selection = document.getSelection();
    if (selection?.rangeCount && this.target.contains(selection.getRangeAt(0).commonAncestorContainer))
      this.range = selection.getRangeAt(0).cloneRange();
  };

  constructor(private readonly target: HTMLElement) {
    document.addEventListener('selectionchange', this.onChange);
  }

  dispose(): void {
    document.removeEventListener('selectionchange', this.onChange);
  }

  /** Inserts `text` at the caret (replacing a selection), leaves the caret after it, and fires `input`. */
  insert(text: string): void {
    const target = this.target;
    if (isTextField(target)) {
      const start = target.selectionStart ?? target.value.length;
      const end = target.selectionEnd ?? start;
      const piece = spaced(target.value.slice(0, start), text, target.value.slice(end));
      if (target.selectionStart === null) target.value += piece;
      else target.setRangeText(piece, start, end, 'end');
      target.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: piece }));
      return;
    }
    const range = this.range ?? endOf(target);
    const before = new Range();
    before.selectNodeContents(target);
    before.setEnd(range.startContainer, range.startOffset);
    const after = new Range();
    after.selectNodeContents(target);
    after.setStart(range.endContainer, range.endOffset);
    const node = document.createTextNode(spaced(before.toString(), text, after.toString()));
    range.deleteContents();
    range.insertNode(node);
    range.setStartAfter(node);
    range.collapse(true);
    this.range = range.cloneRange();
    if (target.contains(document.activeElement) || document.activeElement === target) {
      document.getSelection()?.removeAllRanges();
      document.getSelection()?.addRange(range);
    }
    target.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: node.data }));
  }
}

function endOf(element: HTMLElement): Range {
  const range = new Range();
  range.selectNodeContents(element);
  range.collapse(false);
  return range;
}
