/** The 22 scheduled languages of India IndicConformer 600M recognises: code (as in vocab.json) and name. */
export const INDIC_LANGUAGES: readonly (readonly [code: string, name: string])[] = [
  ['as', 'assamese'],
  ['bn', 'bengali'],
  ['brx', 'bodo'],
  ['doi', 'dogri'],
  ['gu', 'gujarati'],
  ['hi', 'hindi'],
  ['kn', 'kannada'],
  ['ks', 'kashmiri'],
  ['kok', 'konkani'],
  ['mai', 'maithili'],
  ['ml', 'malayalam'],
  ['mni', 'manipuri'],
  ['mr', 'marathi'],
  ['ne', 'nepali'],
  ['or', 'odia'],
  ['pa', 'punjabi'],
  ['sa', 'sanskrit'],
  ['sat', 'santali'],
  ['sd', 'sindhi'],
  ['ta', 'tamil'],
  ['te', 'telugu'],
  ['ur', 'urdu'],
];

export const INDIC_CODES: readonly string[] = INDIC_LANGUAGES.map(([code]) => code);

export const indicLanguageName = (code: string) => INDIC_LANGUAGES.find(([c]) => c === code)?.[1] ?? code;
