import { scaled, scaleWord, spellInteger, spellNumber } from './numbers';
import type { Counted, Scale, SpeechTable } from './table';

/** A written number: digits, optional Indian or Western grouping, optional decimals. */
const NUMBER = String.raw`\d+(?:,\d+)*(?:\.\d+)?`;
/** Not inside a word or another number (a date, a time, a version). */
const START = String.raw`(?<![\p{L}\p{M}\p{N}.,:/])`;
const END = String.raw`(?![\p{L}\p{M}\p{N}]|[.,:/]\d)`;

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const digitsOf = (written: string) => written.replace(/[,.]/g, '');
const counted = (amount: number, [one, other]: Counted) => (amount === 1 ? one : other);
const fill = (pattern: string, values: Record<string, string>) =>
  pattern
    .replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '')
    .replace(/\s+/g, ' ')
    .trim();

/** The written forms of a lakh or crore after an amount: English, Hindi and the table's own. */
const scaleForms = (english: string, hindi: string, scale: string | Scale) =>
  typeof scale === 'string' ? [english, hindi, scale] : [english, hindi, scale.word, scale.before ?? scale.word];

/** ₹, Rs., INR and रु. amounts: rupees, then paise; "₹5 lakh" (or the table's word) as lakhs of rupees. */
export function money(text: string, table: SpeechTable): string {
  if (!table.money) return text;
  const { rupee, paisa, and, one } = table.money;
  const words = table.numbers;
  const lakhs = scaleForms('lakh', 'लाख', words.lakh);
  const scales = [...lakhs, ...scaleForms('crore', 'करोड़', words.crore)].sort((a, b) => b.length - a.length);
  const amount = new RegExp(
    String.raw`(?:₹|(?<![\p{L}\p{M}])(?:Rs\.?|INR|रु\.|रू\.))\s?(${NUMBER})(?:\s?(${scales.map(escape).join('|')}))?(?:/-)?${END}`,
    'gu',
  );
  return text.replace(amount, (match, written: string, scale?: string) => {
    if (scale) {
      const scaleWords = lakhs.includes(scale) ? words.lakh : words.crore;
      const whole = /^\d{1,2}$/.test(written) ? Number(written) : 0;
      const said = whole ? scaled(whole, scaleWords, false, words) : spellNumber(written, words);
      if (!said) return match;
      return whole ? `${said} ${rupee[1]}` : `${said} ${scaleWord(scaleWords)} ${rupee[1]}`;
    }
    const [whole = '', fraction = ''] = written.split('.');
    const rupees = spellNumber(whole, words);
    if (!rupees || fraction.length > 2) return match;
    const count = Number(digitsOf(whole));
    const paise = Number(fraction.padEnd(2, '0'));
    const saidRupees = `${(count === 1 && one) || rupees} ${counted(count, rupee)}`;
    if (!paise) return saidRupees;
    const saidPaise = `${(paise === 1 && one) || spellInteger(paise, words)} ${counted(paise, paisa)}`;
    return count === 0 ? saidPaise : [saidRupees, and, saidPaise].filter(Boolean).join(' ');
  });
}

/** The most days each month can have. */
const DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function year(written: string, table: SpeechTable): string | undefined {
  const paired = table.date?.pairedYears;
  const n = Number(written);
  if (paired && ((n >= 1100 && n <= 1999) || (n >= 2010 && n <= 2099))) {
    const [high, low] = [Math.floor(n / 100), n % 100];
    const words = table.numbers.below100;
    const tail = low === 0 ? paired.hundred : low < 10 ? `${paired.oh} ${words[low]}` : words[low];
    return `${words[high]} ${tail}`;
  }
  return spellNumber(written, table.numbers);
}

function sayDate(table: SpeechTable, day: number, month: number, written?: string): string | undefined {
  const { date, months } = table;
  if (!date || !months || month < 1 || month > 12 || day < 1 || day > DAYS[month - 1]!) return undefined;
  const y = written === undefined ? '' : year(written, table);
  if (y === undefined) return undefined;
  const d = date.dayOrdinals?.[day] ?? spellInteger(day, table.numbers);
  return fill(date.pattern, { d, month: months[month - 1]!, y });
}

/** Day/month/year dates (the Indian order; 15/08/1947, 15-08-1947, 15.08.1947), and English written dates. */
export function dates(text: string, table: SpeechTable): string {
  const { date, months } = table;
  if (!date || !months) return text;
  const numeric = new RegExp(String.raw`${START}(\d{1,2})([/.-])(\d{1,2})\2(\d{4})${END}`, 'gu');
  let out = text.replace(
    numeric,
    (match, d: string, _: string, m: string, y: string) => sayDate(table, Number(d), Number(m), y) ?? match,
  );
  if (!date.dayOrdinals) return out;
  const month = `(${months.map(escape).join('|')})`;
  const monthOf = (name: string) => months.findIndex((m) => m.toLowerCase() === name.toLowerCase()) + 1;
  const dayFirst = new RegExp(String.raw`${START}(\d{1,2})(?:st|nd|rd|th)?\s+${month}(?:,?\s+(\d{4}))?${END}`, 'giu');
  out = out.replace(
    dayFirst,
    (match, d: string, name: string, y?: string) => sayDate(table, Number(d), monthOf(name), y) ?? match,
  );
  const monthFirst = new RegExp(
    String.raw`(?<![\p{L}])${month}\s+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?${END}`,
    'giu',
  );
  return out.replace(monthFirst, (match, name: string, d: string, y?: string) => {
    const day = date.dayOrdinals?.[Number(d)];
    const said = y === undefined ? '' : year(y, table);
    return day && said !== undefined ? `${name} ${day} ${said}`.trim() : match;
  });
}

/** Clock times, 10:30 and 10:30 AM (a.m., pm …); 24-hour times without AM/PM. */
export function times(text: string, table: SpeechTable): string {
  const time = table.time;
  if (!time) return text;
  const after = time.saidWord ? String.raw`(?:\s${escape(time.saidWord)}(?![\p{L}\p{M}]))?` : '';
  const clock = new RegExp(
    String.raw`${START}(\d{1,2}):(\d{2})(?![\p{N}:])(?:\s?([AaPp])\.?\s?[Mm](?![\p{L}]))?${after}`,
    'gu',
  );
  return text.replace(clock, (match, h: string, m: string, meridiem?: string) => {
    const [hour, minute] = [Number(h), Number(m)];
    if (minute > 59 || (meridiem ? hour < 1 || hour > 12 : hour > 23)) return match;
    const words = table.numbers.below100;
    const minutes = minute < 10 && time.minutePad ? `${time.minutePad} ${words[minute]}` : words[minute]!;
    let said = fill(minute ? time.withMinutes : time.onTheHour, { h: words[hour]!, m: minutes });
    if (!meridiem) return said;
    const pm = meridiem.toLowerCase() === 'p';
    if (time.meridiem) said = `${said} ${pm ? time.meridiem.pm : time.meridiem.am}`;
    else if (time.dayParts) {
      const hour24 = (hour % 12) + (pm ? 12 : 0);
      const part = time.dayParts.findLast(([from]) => from <= hour24);
      if (part) said = `${part[1]} ${said}`;
    }
    return said;
  });
}

/** Percentages: the number, then the table's word for per cent. */
export function percents(text: string, table: SpeechTable): string {
  if (!table.percent) return text;
  const percent = new RegExp(String.raw`${START}((?:(?<=^|[\s(])[-−])?${NUMBER})\s?%`, 'gu');
  return text.replace(percent, (match, written: string) => {
    const said = spellNumber(written, table.numbers);
    return said ? `${said} ${table.percent}` : match;
  });
}

/** Units after a number (5 km, 2.5 kg), singular after exactly one. */
export function units(text: string, table: SpeechTable): string {
  const names = Object.keys(table.units ?? {}).sort((a, b) => b.length - a.length);
  if (names.length === 0) return text;
  const measure = new RegExp(
    String.raw`${START}(${NUMBER})\s?(${names.map(escape).join('|')})(?![\p{L}\p{M}\p{N}])`,
    'gu',
  );
  return text.replace(measure, (match, written: string, unit: string) => {
    const said = spellNumber(written, table.numbers);
    return said ? `${said} ${counted(Number(written), table.units![unit]!)}` : match;
  });
}

/** Titles and other abbreviations, where one stands before a space (Dr. Rao). */
export function abbreviations(text: string, table: SpeechTable): string {
  const names = Object.keys(table.abbreviations ?? {});
  if (names.length === 0) return text;
  const title = new RegExp(String.raw`(?<![\p{L}\p{M}])(${names.map(escape).join('|')})(?=\s)`, 'gu');
  return text.replace(title, (name: string) => table.abbreviations![name]!);
}

/** Every other number: whole, grouped, decimal, negative; a comma list (1,2,3) number by number. */
export function numbers(text: string, table: SpeechTable): string {
  const number = new RegExp(String.raw`${START}((?:(?<=^|[\s(])[-−])?\d+(?:[.,]\d+)*)${END}`, 'gu');
  return text.replace(number, (match, written: string) => {
    const said = spellNumber(written, table.numbers);
    if (said) return said;
    if (written.includes('.')) return match;
    const parts = written.split(',');
    const list = parts.map((part) => spellNumber(part, table.numbers));
    return parts.every((part) => part.length <= 3) && list.every(Boolean) ? list.join(', ') : match;
  });
}
