/**
 * Written Indian text as a reader says it, before any TTS engine sees it: numbers in the Indian
 * system (lakh, crore), ₹ amounts, dates, times, percentages, units and a few titles, per language
 * from the tables in languages/ (each names the grammar or data it follows). Native digits read as
 * ASCII digits. Latin-script words inside Indic text are left as they are (the engine reads them);
 * a language without a table is passed through unchanged.
 */
import { asciiDigits } from './digits';
import { abbreviations, dates, money, numbers, percents, times, units } from './rules';
import type { SpeechTable } from './table';
import { AS } from './languages/as';
import { BN } from './languages/bn';
import { EN_IN } from './languages/en-in';
import { GU } from './languages/gu';
import { HI } from './languages/hi';
import { KN } from './languages/kn';
import { ML } from './languages/ml';
import { MR } from './languages/mr';
import { NE } from './languages/ne';
import { OR } from './languages/or';
import { PA } from './languages/pa';
import { TA } from './languages/ta';
import { TE } from './languages/te';
import { UR } from './languages/ur';

export type { SpeechTable } from './table';

/** The tables by language (xx, or xx-YY where a country reads differently: only Indian English here). */
const TABLES: Readonly<Record<string, SpeechTable>> = {
  'en-IN': EN_IN,
  hi: HI,
  mr: MR,
  bn: BN,
  gu: GU,
  ne: NE,
  ta: TA,
  te: TE,
  kn: KN,
  ml: ML,
  pa: PA,
  or: OR,
  as: AS,
  ur: UR,
};

/** The table for a voice's language code (hi-IN → hi; en-IN only for English), or undefined. */
export function speechTable(languageCode: string): SpeechTable | undefined {
  const language = languageCode.split('-')[0]!;
  return TABLES[languageCode] ?? (language === 'en' ? undefined : TABLES[language]);
}

/** Languages (codes as in TABLES) whose text is normalised. */
export const NORMALISED_LANGUAGES = Object.keys(TABLES);

const PASSES = [money, dates, times, percents, units, abbreviations, numbers];

/** `text` as it is read aloud in `languageCode` (a voice's xx-YY); unchanged where no table exists. */
export function normaliseSpeech(text: string, languageCode: string): string {
  const table = speechTable(languageCode);
  if (!table) return text;
  return PASSES.reduce((out, pass) => pass(out, table), asciiDigits(text));
}

export { CLAUSE_MARKS, SENTENCE_MARKS } from './marks';
