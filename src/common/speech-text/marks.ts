/** Marks that end a sentence: Latin, the Devanagari danda and double danda (shared by most Indic scripts), Urdu and Arabic, Ol Chiki, Meetei Mayek. */
export const SENTENCE_MARKS = '.!?।॥۔؟᱾᱿꯫';
/** Marks that end a clause within a sentence. */
export const CLAUSE_MARKS = ',;:،؛';
