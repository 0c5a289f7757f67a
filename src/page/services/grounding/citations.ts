import type { FileCitation, SearchResult } from '../../../protocol/data';

const MARKER = /\[(\d{1,3})\]/g;
/** What may still become a marker at the end of streamed text: a space, `[`, `[1`, ` [12`. */
const OPEN_TAIL = / ?(?:\[\d{0,3})?$/;

/**
 * Filters an answer's citation markers as it streams: `[n]` naming one of the `count` passages
 * supplied is kept, any other number (small models invent them) is removed and reported. Text is
 * held back only while a marker (and the space before it) may still be open.
 */
export class CitationFilter {
  private held = '';
  readonly invented = new Set<number>();

  constructor(private readonly count: number) {}

  private clean(text: string): string {
    return text.replace(/ ?\[(\d{1,3})\]/g, (marker, digits: string) => {
      const n = Number(digits);
      if (n >= 1 && n <= this.count) return marker;
      this.invented.add(n);
      return '';
    });
  }

  /** The text that can be shown now. */
  push(text: string): string {
    const all = this.held + text;
    const cut = OPEN_TAIL.exec(all)!.index;
    this.held = all.slice(cut);
    return this.clean(all.slice(0, cut));
  }

  /** What was held back, at the end of the answer. */
  end(): string {
    const rest = this.clean(this.held);
    this.held = '';
    return rest;
  }
}

/** The `file_citation` annotations of a cleaned answer: one per marker, pointing at the passage's chunk. */
export function citationsOf(text: string, passages: SearchResult[]): FileCitation[] {
  return [...text.matchAll(MARKER)].flatMap((match) => {
    const passage = Number(match[1]);
    const result = passages[passage - 1];
    if (!result) return [];
    return [
      {
        type: 'file_citation' as const,
        index: match.index,
        file_id: result.file_id,
        filename: result.filename,
        passage,
        quote: result.content.map((part) => part.text).join('\n'),
        ...(result.chunk.pages ? { pages: result.chunk.pages } : {}),
      },
    ];
  });
}
