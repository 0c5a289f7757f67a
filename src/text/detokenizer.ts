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
