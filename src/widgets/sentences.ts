export interface Sentence {
  text: string;
  /** Offsets in the source text. */
  start: number;
  end: number;
}

const segmenters = new Map<string, Intl.Segmenter>();
const segmenter = (lang: string) => {
  let found = segmenters.get(lang);
  if (!found) segmenters.set(lang, (found = new Intl.Segmenter(lang || undefined, { granularity: 'sentence' })));
  return found;
};

/** The sentences of `text` (Unicode sentence boundaries: `.`, `?`, `!`, `।`, …), without surrounding space. */
export function splitSentences(text: string, lang = ''): Sentence[] {
  const out: Sentence[] = [];
  for (const { segment, index } of segmenter(lang).segment(text)) {
    const lead = segment.length - segment.trimStart().length;
    const trimmed = segment.trim();
    if (trimmed) out.push({ text: trimmed, start: index + lead, end: index + lead + trimmed.length });
  }
  return out;
}

/** Cuts streamed text into sentences as soon as each is complete (a next one has begun). */
export class SentenceStream {
  private buffer = '';

  constructor(private readonly lang = '') {}

  /** Appends text; the sentences it completed. */
  push(text: string): string[] {
    this.buffer += text;
    const found = splitSentences(this.buffer, this.lang);
    if (found.length < 2) return [];
    const last = found.at(-1)!;
    this.buffer = this.buffer.slice(last.start);
    return found.slice(0, -1).map((sentence) => sentence.text);
  }

  /** The rest, once the stream has ended. */
  flush(): string | undefined {
    const rest = this.buffer.trim();
    this.buffer = '';
    return rest || undefined;
  }
}

/**
 * Whether a transcript ends a sentence: its last mark (after closing quotes and brackets) is a
 * sentence terminator in any script. An ellipsis (`...`, `…`) trails off rather than ends.
 */
export function endsSentence(text: string): boolean {
  const end = text.replace(/[\s\p{Pe}\p{Pf}"']+$/u, '');
  return /\p{Sentence_Terminal}$/u.test(end) && !/\.\.$/.test(end);
}
