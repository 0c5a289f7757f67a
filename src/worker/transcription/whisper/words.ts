import type { Segment, Word } from '../../../protocol/transcription';

const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const length = (text: string) => [...graphemes.segment(text)].length;

/**
 * Word times for Whisper's verbose_json: its timestamp tokens time segments, not words, so each
 * segment's span is shared among its words in proportion to their length in graphemes (punctuation
 * stays with the word before it, or the first word). Every word lies inside its segment and words never overlap; how
 * close a word's times are to the speech depends on how evenly the segment is spoken.
 */
export function segmentWords(segments: Segment[]): Word[] {
  const words: Word[] = [];
  for (const segment of segments) {
    const parts: string[] = [];
    let leading = '';
    for (const piece of segmenter.segment(segment.text)) {
      const text = piece.segment.replace(/\s+/g, '');
      if (piece.isWordLike) {
        parts.push(leading + text);
        leading = '';
      } else if (parts.length) parts[parts.length - 1] += text;
      else leading += text;
    }
    if (leading) parts.push(leading);
    const total = parts.reduce((sum, word) => sum + length(word), 0);
    let at = segment.start;
    for (const word of parts) {
      const end = Math.min(segment.end, at + ((segment.end - segment.start) * length(word)) / total);
      words.push({ word, start: round(at), end: round(end) });
      at = end;
    }
  }
  return words;
}

const round = (seconds: number) => Math.round(seconds * 1000) / 1000;
