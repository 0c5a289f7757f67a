import { describe, expect, it } from 'vitest';
import { kokoroBatches, kokoroIds, kokoroPhonemes, kokoroText } from '../../../src/worker/speech/kokoro-tokens';
import { vitsIds } from '../../../src/worker/speech/vits-tokens';

describe('Kokoro phoneme ids', () => {
  it('maps each phoneme symbol to its id and drops symbols outside the vocabulary', () => {
    expect(kokoroIds(kokoroPhonemes('nəmˈʌsteː'), { n: 1, ə: 2, m: 3, ˈ: 4, ʌ: 5, s: 6, t: 7, e: 8, ː: 9 })).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    expect(kokoroIds('a?b', { a: 1, b: 2 })).toEqual([1, 2]);
    expect(kokoroPhonemes('t\u0361ʃ')).toBe('tʃ');
  });

  it('closes each clause with its punctuation in ASCII', () => {
    expect(kokoroText(['नमस्ते,', 'आप कैसे हैं?', 'ठीक।', 'अच्छा'], (clause) => `<${clause.length}>`)).toBe(
      '<7>, <12>? <4>. <5>',
    );
  });

  it('cuts long input at spaces into runs the model takes', () => {
    const ids = [1, 1, 0, 2, 2, 0, 3, 3];
    expect(kokoroBatches(ids, 0, 4)).toEqual([
      [1, 1, 0],
      [2, 2, 0],
      [3, 3],
    ]);
    expect(kokoroBatches([1, 2, 3, 4, 5], undefined, 2)).toEqual([[1, 2], [3, 4], [5]]);
  });
});

describe('VITS character ids', () => {
  const vocab = { _: 0, a: 1, b: 2, ' ': 3 };
  it('lower-cases, drops unknown characters and puts blanks around every id', () => {
    expect(vitsIds('A b!', vocab, { add_blank: true, normalize: true, pad_token: '_' })).toEqual([0, 1, 0, 3, 0, 2, 0]);
  });
  it('keeps case and adds no blanks when the config says so', () => {
    expect(vitsIds('Ab', vocab, { add_blank: false, normalize: false })).toEqual([2]);
  });
});
