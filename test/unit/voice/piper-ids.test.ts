import { describe, expect, it } from 'vitest';
import { piperClausePhonemes, piperPhonemeIds, piperTextPhonemes } from '../../../src/worker/speech/piper-ids';
import { PIPER_PHONEME_ID_MAP } from '../../fixtures/tts-vits/files';

/** piper-phonemize's DEFAULT_ALPHABET['uk'] (its text-voice alphabet), for its own test vector below. */
const UK = Object.fromEntries(
  [..."_^$ !',-.:;?абвгґдеєжзиіїйклмнопрстуфхцчшщьюя", '\u0301', '\u0306', '\u0308', '—'].map((c, id) => [c, [id]]),
);

const ids = (phonemes: string) => piperPhonemeIds(phonemes, PIPER_PHONEME_ID_MAP).join(' ');

describe("Piper's phoneme ids (piper-phonemize's phonemes_to_ids)", () => {
  it.each([
    // BOS, pad, then each phoneme and a pad, then EOS.
    ['a', '1 0 14 0 2'],
    ['', '1 0 2'],
    // eSpeak output keeps stress marks, punctuation and spaces as phonemes.
    ['ðˈɪs, ', '1 0 41 0 120 0 74 0 31 0 8 0 3 0 2'],
    // A symbol outside the map is skipped (no pad for it).
    ['a☃b', '1 0 14 0 15 0 2'],
    // Decomposed: ç is c + combining cedilla, two phonemes.
    ['ç'.normalize('NFD'), '1 0 16 0 140 0 2'],
  ])('%j → %s', (phonemes, expected) => {
    expect(ids(phonemes)).toBe(expected);
  });

  it("matches piper-phonemize's own test: 'ВЕСЕ́ЛКА' as a text voice (case-folded, NFD) in the uk alphabet", () => {
    expect(piperPhonemeIds(piperTextPhonemes('ВЕСЕ́ЛКА'), UK).join(' ')).toBe(
      '1 0 14 0 18 0 33 0 18 0 45 0 27 0 26 0 12 0 2',
    );
  });

  it("joins clauses as Piper's eSpeak front end writes them ('this, is: a; test.' → 'ðˈɪs, ɪz: ˈeɪ; tˈɛst.')", () => {
    const clauses: [string, string][] = [
      ['this,', 'ðˈɪs'],
      ['is:', 'ɪz'],
      ['a;', 'ˈeɪ'],
      ['test.', 'tˈɛst'],
    ];
    expect(clauses.map(([clause, ipa]) => piperClausePhonemes(clause, ipa)).join('')).toBe('ðˈɪs, ɪz: ˈeɪ; tˈɛst.');
    // Indic marks become ASCII: the danda ends a sentence like '.'.
    expect(piperClausePhonemes('నమస్కారం।', 'nəmə')).toBe('nəmə.');
  });
});
