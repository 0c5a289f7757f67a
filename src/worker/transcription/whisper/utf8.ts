/** Length of a UTF-8 sequence from its first byte; 0 for a continuation or invalid byte. */
function sequenceLength(byte: number): number {
  if (byte < 0x80) return 1;
  if (byte >= 0xc2 && byte < 0xe0) return 2;
  if (byte >= 0xe0 && byte < 0xf0) return 3;
  if (byte >= 0xf0 && byte < 0xf5) return 4;
  return 0;
}

/** How many bytes at the end of `bytes` start a UTF-8 character that is not finished yet (0 to 3). */
export function unfinishedTail(bytes: readonly number[]): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const need = sequenceLength(byte);
    return need > back ? back : 0;
  }
  return 0;
}

export interface TokenRun {
  /** Text tokens. */
  textTokens: number[];
  /** Every token, timestamps included. */
  tokens: number[];
}

/**
 * Keeps characters whole across runs of byte-level tokens: while a run's text ends inside a
 * multi-byte UTF-8 character, its last token moves to the start of the next run, whose first
 * tokens finish the character. The last run keeps what it has (the model really did produce an
 * unfinished character then). Runs are changed in place.
 */
export function carryUnfinished(runs: TokenRun[], bytesOf: (token: number) => readonly number[]): void {
  for (let i = 0; i + 1 < runs.length; i++) {
    const run = runs[i]!;
    const next = runs[i + 1]!;
    while (run.textTokens.length > 0 && unfinishedTail(run.textTokens.flatMap(bytesOf)) > 0) {
      const token = run.textTokens.pop()!;
      run.tokens.splice(run.tokens.lastIndexOf(token), 1);
      next.textTokens.unshift(token);
      next.tokens.unshift(token);
    }
  }
}
