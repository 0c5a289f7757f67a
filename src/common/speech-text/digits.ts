/**
 * The zero of each decimal digit set used for India's languages (Devanagari, Bengali-Assamese,
 * Gurmukhi, Gujarati, Odia, Tamil, Telugu, Kannada, Malayalam, Arabic-Indic, Extended Arabic-Indic
 * for Urdu/Sindhi/Kashmiri, Ol Chiki for Santali, Meetei Mayek for Manipuri); each set runs zero to nine.
 */
const ZEROS = [0x966, 0x9e6, 0xa66, 0xae6, 0xb66, 0xbe6, 0xc66, 0xce6, 0xd66, 0x660, 0x6f0, 0x1c50, 0xabf0];

const NATIVE = new RegExp(
  `[${ZEROS.map((zero) => `\\u{${zero.toString(16)}}-\\u{${(zero + 9).toString(16)}}`).join('')}]`,
  'gu',
);

/** `text` with every native digit written as the ASCII digit of the same value. */
export function asciiDigits(text: string): string {
  return text.replace(NATIVE, (digit) => {
    const code = digit.codePointAt(0)!;
    const zero = ZEROS.find((z) => code >= z && code <= z + 9)!;
    return String(code - zero);
  });
}
