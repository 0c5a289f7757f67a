/** Longest repeating unit looked for, in text tokens. */
const MAX_PERIOD = 48;
/** A loop: the same unit at least this many times in a row … */
const MIN_REPEATS = 3;
/** … covering at least this many text tokens. */
const MIN_TOKENS = 20;

/**
 * Where to cut a generation caught in a loop (the failure whisper.cpp and faster-whisper guard
 * against): when the text tokens end with one unit repeated MIN_REPEATS or more times over
 * MIN_TOKENS or more tokens, the length of `tokens` that keeps the first copy only; otherwise
 * undefined. Timestamp tokens (`isText` false) are skipped in the comparison, so repeated
 * segments count too.
 */
export function loopCut(tokens: readonly number[], isText: (token: number) => boolean): number | undefined {
  const at: number[] = [];
  for (let i = 0; i < tokens.length; i++) if (isText(tokens[i]!)) at.push(i);
  const text = at.map((i) => tokens[i]!);
  const n = text.length;
  for (let period = 1; period <= MAX_PERIOD && period * MIN_REPEATS <= n; period++) {
    let same = 0;
    while (same + period < n && text[n - 1 - same] === text[n - 1 - same - period]) same++;
    const span = same + period;
    if (span >= MIN_REPEATS * period && span >= MIN_TOKENS) return at[n - span + period - 1]! + 1;
  }
  return undefined;
}
