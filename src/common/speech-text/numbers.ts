import type { NumberWords, Scale } from './table';

/** Longer runs of digits are read one by one (a phone number, an account number). */
const MAX_DIGITS = 9;

/** The word for a scale (thousand, lakh, crore) as said after a multiplier with nothing after it. */
export const scaleWord = (scale: string | Scale) => (typeof scale === 'string' ? scale : scale.word);

/** `count` thousands, lakhs or crores, with `more` of the number after them. */
export function scaled(count: number, scale: string | Scale, more: boolean, words: NumberWords): string {
  if (typeof scale === 'string') return `${spellInteger(count, words)} ${scale}`;
  if (count === 1 && scale.one) return scale.one[more ? 1 : 0];
  const word = more ? (scale.before ?? scale.word) : scale.word;
  const own = scale.multipliers?.[count];
  if (scale.fused) return `${own ?? spellInteger(count, words).slice(0, -1)}${word}`;
  return `${own ?? spellInteger(count, words)} ${word}`;
}

/** `n` (0 ≤ n < 10¹⁵) in words: crores, lakhs, thousands, hundreds, then the table's 0–99. */
export function spellInteger(n: number, words: NumberWords): string {
  if (n < 100) return words.below100[n]!;
  const parts: string[] = [];
  const crores = Math.floor(n / 1e7);
  if (crores) parts.push(scaled(crores, words.crore, n % 1e7 > 0, words));
  const lakhs = Math.floor((n % 1e7) / 1e5);
  if (lakhs) parts.push(scaled(lakhs, words.lakh, n % 1e5 > 0, words));
  const thousands = Math.floor((n % 1e5) / 1e3);
  if (thousands) parts.push(scaled(thousands, words.thousand, n % 1e3 > 0, words));
  const hundreds = Math.floor((n % 1e3) / 100);
  const rest = n % 100;
  if (hundreds) parts.push(((rest && words.hundredsBefore) || words.hundreds)[hundreds]!);
  if (rest) parts.push(words.below100[rest]!);
  return parts.join(' ');
}

/** Each digit of `digits` read alone. */
export const spellDigits = (digits: string, words: NumberWords) =>
  [...digits].map((digit) => words.below100[Number(digit)]).join(' ');

/** Digits grouped the Indian way (1,25,000) or the Western way (125,000), or not at all. */
const GROUPED = /^(?:\d{1,2}(?:,\d{2})*,\d{3}|\d{1,3}(?:,\d{3})+|\d+)$/;

/** A run of ASCII digits read as a whole number; one with leading zeros or over nine digits, digit by digit. */
function spellWhole(digits: string, words: NumberWords, grouped: boolean): string {
  if ((digits.length > 1 && digits.startsWith('0')) || (!grouped && digits.length > MAX_DIGITS) || digits.length > 15)
    return spellDigits(digits, words);
  return spellInteger(Number(digits), words);
}

/**
 * A written number (`1,25,000`, `3.5`, `-4`) in words, or undefined where it cannot be read
 * safely: a grouping that is neither Indian nor Western, a decimal or minus the table has no word for.
 */
export function spellNumber(written: string, words: NumberWords): string | undefined {
  const negative = /^[-−]/.test(written);
  const [whole, fraction, extra] = written.replace(/^[-−]/, '').split('.');
  if (extra !== undefined || !whole || !GROUPED.test(whole)) return undefined;
  if ((fraction !== undefined && !words.point) || (negative && !words.minus)) return undefined;
  const said = [
    negative ? words.minus : '',
    spellWhole(whole.replace(/,/g, ''), words, whole.includes(',')),
    fraction === undefined ? '' : `${words.point} ${spellDigits(fraction, words)}`,
  ];
  return said.filter(Boolean).join(' ');
}
