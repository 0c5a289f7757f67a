/** What XGrammar needs to know about a tokenizer: every token's text by id, and how to read it. */
export interface GrammarVocabulary {
  /** Token strings as tokenizer.json writes them, by id; '' for special tokens (never allowed). */
  tokens: string[];
  /** XGrammar's name for how token strings map to bytes. */
  vocabType: 'byte_level' | 'byte_fallback' | 'raw';
  /** Whether the tokenizer puts a '▁' before the text (SentencePiece-style Llama tokenizers). */
  prependSpace: boolean;
}

type Json = Record<string, unknown>;

const parts = (node: unknown, key: string): Json[] => {
  if (typeof node !== 'object' || node === null) return [];
  const json = node as Json;
  const nested = json[key];
  return [json, ...(Array.isArray(nested) ? nested.flatMap((child) => parts(child, key)) : [])];
};

const hasType = (node: unknown, key: string, type: string) => parts(node, key).some((part) => part.type === type);

function vocabType(tokenizer: Json): GrammarVocabulary['vocabType'] {
  if (
    hasType(tokenizer.decoder, 'decoders', 'ByteLevel') ||
    hasType(tokenizer.pre_tokenizer, 'pretokenizers', 'ByteLevel')
  )
    return 'byte_level';
  const model = (tokenizer.model ?? {}) as Json;
  if (model.byte_fallback === true || hasType(tokenizer.decoder, 'decoders', 'ByteFallback')) return 'byte_fallback';
  return 'raw';
}

function prependSpace(tokenizer: Json): boolean {
  if (parts(tokenizer.normalizer, 'normalizers').some((part) => part.type === 'Prepend' && part.prepend === '▁'))
    return true;
  return parts(tokenizer.pre_tokenizer, 'pretokenizers').some(
    (part) =>
      part.type === 'Metaspace' &&
      (part.add_prefix_space === true || part.prepend_scheme === 'always' || part.prepend_scheme === 'first'),
  );
}

/**
 * Reads tokenizer.json (BPE or WordPiece `model.vocab` as a map, Unigram as a list) and its added
 * tokens into XGrammar's vocabulary for logits of width `size` (a config may pad the vocabulary).
 */
export function grammarVocabulary(tokenizer: Json, size: number): GrammarVocabulary {
  const tokens = new Array<string>(size).fill('');
  const vocab = ((tokenizer.model ?? {}) as Json).vocab;
  if (Array.isArray(vocab)) vocab.forEach((entry, id) => id < size && (tokens[id] = String((entry as unknown[])[0])));
  else if (vocab && typeof vocab === 'object')
    for (const [text, id] of Object.entries(vocab as Record<string, number>)) if (id < size) tokens[id] = text;
  for (const added of (tokenizer.added_tokens ?? []) as { id: number; content: string; special?: boolean }[])
    if (added.id < size) tokens[added.id] = added.special ? '' : added.content;
  return { tokens, vocabType: vocabType(tokenizer), prependSpace: prependSpace(tokenizer) };
}
