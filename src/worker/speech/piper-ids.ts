/** The parts of a Piper voice's `<voice>.onnx.json` the runtime reads. */
export interface PiperConfig {
  audio?: { sample_rate?: number };
  espeak?: { voice?: string };
  inference?: { noise_scale?: number; length_scale?: number; noise_w?: number };
  phoneme_type?: 'espeak' | 'text' | string;
  phoneme_id_map: Record<string, number[]>;
  num_speakers?: number;
  speaker_id_map?: Record<string, number>;
}

export const PIPER_PAD = '_';
export const PIPER_BOS = '^';
export const PIPER_EOS = '$';

/**
 * Phoneme ids as Piper makes them (piper-phonemize's phonemes_to_ids): BOS, pad, then each phoneme's
 * ids followed by the pad, then EOS. Phonemes are code points; those outside the map are skipped.
 */
export function piperPhonemeIds(phonemes: string, map: Record<string, number[]>): number[] {
  const pad = map[PIPER_PAD] ?? [];
  const ids = [...(map[PIPER_BOS] ?? []), ...pad];
  for (const phoneme of phonemes) {
    const mapped = map[phoneme];
    if (mapped) ids.push(...mapped, ...pad);
  }
  ids.push(...(map[PIPER_EOS] ?? []));
  return ids;
}

/** A `text` voice's phonemes: the text lower-cased and decomposed (NFD), as phonemize_codepoints does. */
export const piperTextPhonemes = (text: string) => text.toLowerCase().normalize('NFD');

/** eSpeak IPA as Piper reads it: decomposed (NFD), so combining marks are their own phonemes. */
export const piperEspeakPhonemes = (ipa: string) => ipa.normalize('NFD');

const TERMINATOR: Record<string, string> = { '।': '.', '॥': '.', '۔': '.', '؟': '?', '،': ',', '؛': ';' };

/**
 * A clause's phonemes followed by its terminator, as Piper's eSpeak front end writes them: the clause
 * mark in ASCII, and a space after a mid-sentence mark (`,` `;` `:`).
 */
export function piperClausePhonemes(clause: string, ipa: string): string {
  const mark = clause.match(/[,.!?;:।॥،؛؟۔]$/u)?.[0];
  const terminator = mark ? (TERMINATOR[mark] ?? mark) : '';
  return piperEspeakPhonemes(ipa) + terminator + (/[,;:]/.test(terminator) ? ' ' : '');
}
