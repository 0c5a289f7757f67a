import { describe, expect, it } from 'vitest';
import { formatSize, formatTime } from '../../../src/common/fit/decide';
import { sizeIn, timeIn } from '../../../src/widgets/quantities';

describe("the consent dialog's size and time in the widget's language", () => {
  it("keeps the plan's English words for English", () => {
    for (const lang of ['en', 'en-IN', ''])
      expect([sizeIn(512e6, lang, formatSize(512e6)), timeIn(420, lang, formatTime(420))]).toEqual([
        '512 MB',
        '~7 min',
      ]);
  });

  it('says the time in Hindi, Bengali and Tamil words, rounded as in English', () => {
    expect(timeIn(40, 'hi', '~40 s')).toBe('~40 सेकंड');
    expect(timeIn(420, 'hi', '~7 min')).toBe('~7 मिनट');
    expect(timeIn(5400, 'hi', '~1.5 h')).toBe('~1.5 घंटे');
    expect(timeIn(420, 'bn-IN', '~7 min')).toBe('~৭ মিনিট');
    expect(timeIn(420, 'ta', '~7 min')).toBe('~7 நிமிடங்கள்');
  });

  it("writes the size in the language's digits with the same rounding", () => {
    expect(sizeIn(512e6, 'hi', '512 MB')).toBe('512 MB');
    expect(sizeIn(2.15e9, 'bn', '2.2 GB')).toBe('২.২ GB');
    expect(sizeIn(1500, 'hi', '2 kB')).toBe('2 kB');
  });

  it('falls back to English units for a language tag Intl rejects', () => {
    expect(timeIn(420, 'not a tag!', '~7 min')).toBe('~7 minutes');
  });
});
