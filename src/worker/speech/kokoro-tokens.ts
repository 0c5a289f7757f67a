/** Kokoro's tokenizer.json: one id per phoneme character (a WordLevel vocabulary), 0 pads both ends. */
export interface KokoroTokenizerJson {
  model: { vocab: Record<string, number> };
}

/** Longest phoneme sequence Kokoro takes (its context is 512 with the two pads). */
export const MAX_KOKORO_TOKENS = 510;
export const PAD_ID = 0;

/** eSpeak IPA in Kokoro's spelling: composed characters, no tie bars (symbols it lacks are dropped by kokoroIds). */
export const kokoroPhonemes = (ipa: string) => ipa.normalize('NFC').replace(/[\u0361\u035c]/g, '');

const PUNCTUATION: Record<string, string> = { '।': '.', '॥': '.', '۔': '.', '؟': '?', '،': ',', '؛': ';' };

/**
 * The phoneme string Kokoro reads for some clauses: each clause's IPA followed by its closing
 * punctuation in ASCII (Kokoro's vocabulary has , . ! ? ; : and uses them for phrasing).
 */
export function kokoroText(clauses: string[], phonemize: (clause: string) => string): string {
  return clauses
    .map((clause) => {
      const mark = clause.match(/[,.!?;:।॥،؛؟۔]$/u)?.[0];
      return kokoroPhonemes(phonemize(clause)) + (mark ? (PUNCTUATION[mark] ?? mark) : '');
    })
    .join(' ');
}

/** Phoneme ids without the pads; characters outside the vocabulary are dropped. */
export function kokoroIds(phonemes: string, vocab: Record<string, number>): number[] {
  return [...phonemes].flatMap((symbol) => (symbol in vocab ? [vocab[symbol]!] : []));
}

/** Splits ids into runs Kokoro can take, cutting at spaces where it can. */
export function kokoroBatches(ids: number[], spaceId: number | undefined, max = MAX_KOKORO_TOKENS): number[][] {
  const batches: number[][] = [];
  let start = 0;
  while (start < ids.length) {
    let end = Math.min(ids.length, start + max);
    if (end < ids.length && spaceId !== undefined) {
      const space = ids.lastIndexOf(spaceId, end - 1);
      if (space > start) end = space + 1;
    }
    batches.push(ids.slice(start, end));
    start = end;
  }
  return batches;
}
