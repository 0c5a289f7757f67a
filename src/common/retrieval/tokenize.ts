/**
 * Words for keyword search in any script: NFKC, lower case, then Intl.Segmenter's word boundaries
 * (ICU keeps Devanagari and Tamil words whole with their vowel signs and viramas). Where
 * Intl.Segmenter is missing, runs of letters, marks and digits stand in for words.
 */
const segmenter =
  typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter('und', { granularity: 'word' }) : undefined;
const FALLBACK = /[\p{L}\p{M}\p{N}]+(?:['’][\p{L}\p{M}]+)*/gu;

export function words(text: string): string[] {
  const normal = text.normalize('NFKC').toLowerCase();
  if (!segmenter) return normal.match(FALLBACK) ?? [];
  const out: string[] = [];
  for (const part of segmenter.segment(normal)) if (part.isWordLike) out.push(part.segment);
  return out;
}
