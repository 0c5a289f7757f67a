import type { WhisperIds } from './config';
import type { Pass, PassToken } from './seek';

/** A stretch of text between two timestamps, times in seconds from the window's start. */
export interface WindowSegment {
  start: number | undefined;
  end: number | undefined;
  /** Text tokens only. */
  textTokens: number[];
  /** Every token of the segment, its timestamps included. */
  tokens: number[];
  pass: Pass;
}

const round2 = (seconds: number) => Math.round(seconds * 100) / 100;

/**
 * Splits a window's tokens into segments the way transformers.js reads Whisper output: the first
 * timestamp opens a segment, the next different one closes it; text tokens collect in between;
 * other special tokens are dropped. Text left without a closing timestamp ends in an open segment.
 */
export function splitSegments(tokens: readonly PassToken[], passes: readonly Pass[], ids: WhisperIds): WindowSegment[] {
  const segments: WindowSegment[] = [];
  let open: WindowSegment | undefined;
  const segment = (pass: number): WindowSegment => ({
    start: undefined,
    end: undefined,
    textTokens: [],
    tokens: [],
    pass: passes[pass]!,
  });
  for (const { token, pass } of tokens) {
    open ??= segment(pass);
    if (token >= ids.timestampBegin && token <= ids.timestampBegin + 1500) {
      const time = round2((token - ids.timestampBegin) * 0.02);
      if (open.start === undefined) {
        open.start = time;
        open.tokens.push(token);
      } else if (time !== open.start) {
        open.end = time;
        open.tokens.push(token);
        segments.push(open);
        open = undefined;
      }
    } else if (token < ids.eot) {
      open.textTokens.push(token);
      open.tokens.push(token);
    }
  }
  if (open && open.textTokens.length > 0) segments.push(open);
  return segments;
}

/** All of a window's text as one segment, for output asked without timestamps (stray timestamp tokens are dropped). */
export function wholeSegment(tokens: readonly PassToken[], passes: readonly Pass[], ids: WhisperIds): WindowSegment[] {
  const textTokens = tokens.map(({ token }) => token).filter((token) => token < ids.eot);
  if (passes.length === 0) return [];
  return [{ start: 0, end: undefined, textTokens, tokens: [...textTokens], pass: passes[0]! }];
}
