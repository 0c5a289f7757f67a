/**
 * Turns a stream of token ids into text pieces that never end inside a UTF-8 character or a
 * byte-fallback sequence: a piece is released only when decoding no longer ends in U+FFFD.
 * Decoding a short window of previous tokens keeps word-boundary rules (e.g. SentencePiece's
 * leading space) the same as decoding the whole sequence.
 */
export class StreamingDecoder {
  private readonly ids: number[] = [];
  private prefixOffset = 0;
  private readOffset = 0;

  constructor(private readonly decode: (ids: number[]) => string) {}

  /** Adds a token; returns the text it completes ('' while a character is still partial). */
  push(id: number): string {
    this.ids.push(id);
    const prefix = this.decode(this.ids.slice(this.prefixOffset, this.readOffset));
    const text = this.decode(this.ids.slice(this.prefixOffset));
    if (text.length <= prefix.length || text.endsWith('\uFFFD')) return '';
    this.prefixOffset = this.readOffset;
    this.readOffset = this.ids.length;
    return text.slice(prefix.length);
  }

  /** The text still held back at the end of generation. */
  flush(): string {
    const prefix = this.decode(this.ids.slice(this.prefixOffset, this.readOffset));
    const text = this.decode(this.ids.slice(this.prefixOffset));
    this.prefixOffset = this.readOffset = this.ids.length;
    return text.slice(prefix.length);
  }
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * Holds back the last grapheme cluster of streamed text until later text starts a new one, so that
 * no piece ends inside a cluster (a consonant waiting for its virama or vowel sign, an emoji for its
 * modifier or ZWJ sequence). A line feed always ends its cluster, so it is never held.
 */
export class GraphemeHold {
  private held = '';

  /** Adds text; returns what is now known to end on a cluster boundary. */
  push(piece: string): string {
    const text = this.held + piece;
    if (!text || text.endsWith('\n')) {
      this.held = '';
      return text;
    }
    const last = graphemes.segment(text).containing(text.length - 1)!.index;
    this.held = text.slice(last);
    return text.slice(0, last);
  }

  /** The held cluster, at the end of the stream. */
  flush(): string {
    const rest = this.held;
    this.held = '';
    return rest;
  }
}
