import { describe, expect, it } from 'vitest';
import { normaliseSpeech, NORMALISED_LANGUAGES, speechTable } from '../../../src/common/speech-text';
import { asciiDigits } from '../../../src/common/speech-text/digits';
import { LANGUAGES } from '../../../src/catalogue/voices';
import { splitClauses } from '../../../src/worker/speech/prosody';

describe('speech text: Marathi, Bengali, Gujarati, Nepali', () => {
  it.each([
    ['mr-IN', '19', 'एकोणीस'],
    ['mr-IN', '44', 'चव्वेचाळीस'],
    ['mr-IN', '100', 'शंभर'],
    ['mr-IN', '123', 'एकशे तेवीस'],
    ['mr-IN', '२००', 'दोनशे'],
    ['mr-IN', '12,345', 'बारा हजार तीनशे पंचेचाळीस'],
    ['mr-IN', '1,25,000', 'एक लाख पंचवीस हजार'],
    ['mr-IN', '2,00,00,000', 'दोन कोटी'],
    ['mr-IN', '15/08/1947', 'पंधरा ऑगस्ट एक हजार नऊशे सत्तेचाळीस'],
    ['mr-IN', '50%', 'पन्नास टक्के'],
    ['mr-IN', '3.5', 'तीन दशांश पाच'],
    ['mr-IN', '-4', 'उणे चार'],
    ['mr-IN', '₹500', 'पाचशे रुपये'],
    ['mr-IN', '₹1', 'एक रुपया'],
    ['mr-IN', 'Rs. 10.50', 'दहा रुपये पन्नास पैसे'],
    ['mr-IN', '10:30', '10:30'],
    ['bn-IN', '১০১', 'একশো এক'],
    ['bn-IN', '29', 'ঊনত্রিশ'],
    ['bn-IN', '900', 'নশো'],
    ['bn-IN', '1,25,000', 'এক লাখ পঁচিশ হাজার'],
    ['bn-IN', '5 km', 'পাঁচ কিলোমিটার'],
    ['bn-IN', '26/01/1950', 'ছাব্বিশ জানুয়ারি এক হাজার নশো পঞ্চাশ'],
    ['bn-IN', '2.5', 'দুই দশমিক পাঁচ'],
    ['bn-IN', '-4', 'ঋণ চার'],
    ['bn-IN', '₹1,25,000', 'এক লাখ পঁচিশ হাজার টাকা'],
    ['bn-IN', 'Rs. 10.50', 'দশ টাকা পঞ্চাশ পয়সা'],
    ['bn-IN', '50%', 'পঞ্চাশ শতাংশ'],
    ['gu-IN', '૧૦૦', 'એક સો'],
    ['gu-IN', '69', 'અગણોસિત્તેર'],
    ['gu-IN', '1,25,000', 'એક લાખ પચ્ચીસ હજાર'],
    ['gu-IN', '3,00,00,000', 'ત્રણ કરોડ'],
    ['gu-IN', '2.5', 'બે દશાંશ પાંચ'],
    ['gu-IN', '20%', 'વીસ ટકા'],
    ['gu-IN', '₹1,25,000', 'એક લાખ પચ્ચીસ હજાર રૂપિયા'],
    ['gu-IN', '₹0.01', 'એક પૈસો'],
    ['ne-IN', '11', 'एघार'],
    ['ne-IN', '99', 'उनान्सय'],
    ['ne-IN', '१२५', 'एक सय पच्चिस'],
    ['ne-IN', '1,25,000', 'एक लाख पच्चिस हजार'],
    ['ne-IN', '4.5', 'चार दशमलव पाँच'],
    ['ne-IN', '15/08/1947', 'पन्ध्र अगस्ट एक हजार नौ सय सतचालिस'],
    ['ne-IN', '₹2 लाख', 'दुई लाख रूपिँया'],
    ['ne-IN', 'Rs. 5.50', 'पाँच रूपिँया पचास पैसा'],
  ])('%s reads %s as %s', (language, written, said) => expect(normaliseSpeech(written, language)).toBe(said));

  it.each([
    ['mr-IN', '१५ ऑगस्टला ₹५०० भरले। ५०% परत मिळाले॥', ['पंधरा ऑगस्टला पाचशे रुपये भरले।', 'पन्नास टक्के परत मिळाले॥']],
    ['bn-IN', 'দাম ₹৫০০। ছাড় ১০%?', ['দাম পাঁচশো টাকা।', 'ছাড় দশ শতাংশ?']],
  ])('%s: splits the read sentence after the danda', (language, text, sentences) =>
    expect(splitClauses(normaliseSpeech(text, language))).toEqual(sentences),
  );
});

describe('speech text tables', () => {
  it.each(NORMALISED_LANGUAGES)('%s has 0–99 in full and every hundred', (language) => {
    const { numbers, months } = speechTable(language)!;
    expect(numbers.below100).toHaveLength(100);
    expect(new Set(numbers.below100).size).toBe(100);
    expect(numbers.below100.every((word) => word.trim() === word && word !== '')).toBe(true);
    expect(numbers.hundreds.slice(1).filter(Boolean)).toHaveLength(9);
    expect(months ?? []).toHaveLength(months ? 12 : 0);
  });

  it.each(NORMALISED_LANGUAGES)('%s writes every word in NFC (composed, as text is usually typed)', (language) => {
    const words = JSON.stringify(speechTable(language));
    expect(words.normalize('NFC')).toBe(words);
  });

  it.each(NORMALISED_LANGUAGES)('%s: a scale written onto its multiplier has a final sign to take off', (language) => {
    const { below100, thousand, lakh, crore } = speechTable(language)!.numbers;
    for (const scale of [thousand, lakh, crore])
      if (typeof scale !== 'string' && scale.fused) {
        expect(scale.word).toMatch(/^\p{M}/u);
        expect(below100.slice(2).filter((word) => !/\p{M}$/u.test(word))).toEqual([]);
      }
  });

  it('passes languages without a table through unchanged, so digits reach the engine as written', () => {
    const without = LANGUAGES.map((language) => language.languageCode).filter((code) => !speechTable(code));
    expect(without).toEqual(['sd-IN', 'kok-IN', 'en-US', 'en-GB']);
    for (const code of without) expect(normaliseSpeech('₹1,25,000 ৫ 10:30', code)).toBe('₹1,25,000 ৫ 10:30');
  });

  it('reads every Indian digit set as ASCII digits', () => {
    expect(asciiDigits('०१२३४५६७८९ ০৯ ੦੯ ૦૯ ୦୯ ௦௯ ౦౯ ೦೯ ൦൯ ٠٩ ۰۹ ᱐᱙ ꯰꯹')).toBe(
      '0123456789 09 09 09 09 09 09 09 09 09 09 09 09',
    );
    expect(normaliseSpeech('৫০', 'hi-IN')).toBe('पचास');
  });
});
