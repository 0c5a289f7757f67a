import type { LanguageVocabulary } from './vocab';

/** One emitted token: its local id, its piece and the encoder frames it covers, [start, end). */
export interface TimedToken {
  id: number;
  piece: string;
  start: number;
  end: number;
}

export interface TimedWord {
  word: string;
  /** Seconds. */
  start: number;
  end: number;
}

/** SentencePiece's word-boundary mark. */
export const WORD_START = '\u2581';
/** Pieces such as <unk> or <s> carry no text. */
const isSpecial = (piece: string) => piece.length > 2 && piece.startsWith('<') && piece.endsWith('>');

/** The piece of a local id, or undefined for the blank and special pieces. */
export function pieceOf(vocab: LanguageVocabulary, id: number): string | undefined {
  if (id === vocab.blank) return undefined;
  const piece = vocab.pieces[id];
  return piece === undefined || isSpecial(piece) ? undefined : piece;
}

/**
 * Pieces joined into words: a piece holding ▁ starts a new word. A word starts where its first
 * token starts and ends where its last one ends; `frameSeconds` per encoder frame, plus `offset`.
 */
export function joinWords(tokens: readonly TimedToken[], frameSeconds: number, offset = 0): TimedWord[] {
  const words: TimedWord[] = [];
  let current: { text: string; start: number; end: number } | undefined;
  const flush = () => {
    if (current && current.text)
      words.push({
        word: current.text,
        start: offset + current.start * frameSeconds,
        end: offset + current.end * frameSeconds,
      });
    current = undefined;
  };
  for (const token of tokens) {
    if (token.piece.includes(WORD_START)) flush();
    const text = token.piece.replaceAll(WORD_START, '');
    if (current) {
      current.text += text;
      current.end = token.end;
    } else current = { text, start: token.start, end: token.end };
  }
  flush();
  return words;
}

/** The text of the tokens: pieces joined, ▁ as spaces, trimmed. */
export const joinText = (tokens: readonly TimedToken[]) =>
  tokens
    .map((token) => token.piece)
    .join('')
    .replaceAll(WORD_START, ' ')
    .replace(/\s+/g, ' ')
    .trim();
