/** A language's data for reading written text aloud (one file per language under languages/). */

/** Number words of the Indian system: units, hundreds, thousand, lakh (10⁵), crore (10⁷). */
export interface NumberWords {
  /** 0–99, every one written out (Indo-Aryan 0–99 are irregular). */
  below100: readonly string[];
  /** Index 1–9: a whole hundred said alone (100, 200 … 900). */
  hundreds: readonly string[];
  /** Index 1–9: a hundred with more of the number after it, where that differs from `hundreds`. */
  hundredsBefore?: readonly string[];
  thousand: string | Scale;
  lakh: string | Scale;
  crore: string | Scale;
  /** Said between a number and its decimal digits (each read alone); without it a decimal is left as written. */
  point?: string;
  /** Said before a negative number; without it a negative is left as written. */
  minus?: string;
}

/**
 * A thousand, lakh or crore where the word changes with what stands around it (the Dravidian
 * languages); a plain string is said after its multiplier as it is.
 */
export interface Scale {
  /** After a multiplier, nothing after it (Telugu రెండు వేల). */
  word: string;
  /** After a multiplier, more of the number after it (Kannada ಎರಡು ಸಾವಿರದ ಒಂದು); default `word`. */
  before?: string;
  /** Exactly one of it, `[alone, before more]` (Telugu వెయ్యి; Tamil ஆயிரம், ஆயிரத்து); default the multiplier 1 and `word`. */
  one?: readonly [alone: string, before: string];
  /** `word` and `before` are written onto the multiplier, which loses its final sign (Tamil இரண்டு + ாயிரம் → இரண்டாயிரம்). */
  fused?: boolean;
  /** Multipliers said their own way before it, by value (Malayalam 10: പതിന → പതിനായിരം). */
  multipliers?: Readonly<Record<number, string>>;
}

/** `[one, other]`: the word after 1, and after any other amount. */
export type Counted = readonly [one: string, other: string];

export interface SpeechTable {
  numbers: NumberWords;
  /** Said after a percentage. */
  percent?: string;
  /** January … December, for numeric dates (day/month/year); without them a date is left as written. */
  months?: readonly string[];
  /**
   * How a date is said (`{d}`, `{month}`, `{y}`). `dayOrdinals` (index 1–31) reads the day as an
   * ordinal and also reads written-out English dates ("15 August 1947"); `pairedYears` reads
   * 1100–1999 and 2010–2099 as two pairs ("nineteen forty-seven").
   */
  date?: { pattern: string; dayOrdinals?: readonly string[]; pairedYears?: { hundred: string; oh: string } };
  /** How a clock time is said (`{h}`, `{m}`); without it a time is left as written. */
  time?: {
    onTheHour: string;
    withMinutes: string;
    /** Minutes 1–9 read with this word first (English "oh five"). */
    minutePad?: string;
    /** After the time: what AM and PM are read as. */
    meridiem?: { am: string; pm: string };
    /** A word written after a time that the reading already says (Hindi बजे), dropped. */
    saidWord?: string;
    /** Before the time, in place of AM/PM: the part of the day from each 24-hour hour on. */
    dayParts?: readonly (readonly [fromHour: number, word: string])[];
  };
  /** Rupees and paise; without them a ₹ amount's number is read and the sign left to the engine. */
  money?: {
    rupee: Counted;
    paisa: Counted;
    and: string;
    /** The amount 1 before the rupee or paisa word, where it differs from counting (Tamil ஒரு, not ஒன்று). */
    one?: string;
  };
  /** Units read after a number, by their written form. */
  units?: Readonly<Record<string, Counted>>;
  /** Abbreviations read as words wherever they stand as a word of their own. */
  abbreviations?: Readonly<Record<string, string>>;
}
