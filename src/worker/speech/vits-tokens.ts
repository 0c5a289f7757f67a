/** The parts of an MMS / VITS tokenizer_config.json the tokenizer follows. */
export interface VitsTokenizerConfig {
  add_blank?: boolean;
  normalize?: boolean;
  pad_token?: string;
  is_uroman?: boolean;
}

/**
 * Character ids as the VITS tokenizer makes them: lower-cased when `normalize`, characters outside
 * the vocabulary dropped, and the pad (blank) id between and around them when `add_blank`.
 */
export function vitsIds(text: string, vocab: Record<string, number>, config: VitsTokenizerConfig): number[] {
  const normalised = config.normalize === false ? text : text.toLowerCase();
  const ids = [...normalised].flatMap((char) => (char in vocab ? [vocab[char]!] : []));
  if (!config.add_blank) return ids;
  const blank = vocab[config.pad_token ?? ''] ?? 0;
  return [blank, ...ids.flatMap((id) => [id, blank])];
}
