/**
 * One language's view of the shared output layer: `columns` are the indices of the CTC head's
 * outputs that belong to it (language_masks.json, in order), `pieces` its SentencePiece pieces by
 * local id (vocab.json), `blank` the local id of the CTC/RNN-T blank.
 */
export interface LanguageVocabulary {
  language: string;
  columns: Int32Array;
  pieces: readonly string[];
  blank: number;
}

export class VocabularyError extends Error {
  override name = 'VocabularyError';
}

/** vocab.json ({ lang: pieces[] }) and language_masks.json ({ lang: boolean[] over the head's outputs }). */
export class IndicVocabulary {
  private readonly byLanguage = new Map<string, LanguageVocabulary>();

  /** `blankId`: the local blank (config.json BLANK_ID); the mask's last column when absent. */
  constructor(vocab: unknown, masks: unknown, blankId?: number) {
    if (!isRecord(vocab) || !isRecord(masks))
      throw new VocabularyError('vocab.json and language_masks.json must be objects.');
    for (const [language, mask] of Object.entries(masks)) {
      const pieces = vocab[language];
      if (!Array.isArray(mask) || !Array.isArray(pieces) || !pieces.every((p) => typeof p === 'string'))
        throw new VocabularyError(`language '${language}': expected a boolean mask and a list of pieces.`);
      const columns = Int32Array.from(mask.flatMap((on, i) => (on === true || on === 1 ? [i] : [])));
      const blank = blankId ?? columns.length - 1;
      if (columns.length < 2 || blank >= columns.length)
        throw new VocabularyError(
          `language '${language}': its mask selects ${columns.length} outputs, blank ${blank}.`,
        );
      this.byLanguage.set(language, { language, columns, pieces, blank });
    }
  }

  get languages(): string[] {
    return [...this.byLanguage.keys()];
  }

  get(language: string): LanguageVocabulary | undefined {
    return this.byLanguage.get(language);
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
