import { describe, expect, it } from 'vitest';
import type { Segment } from '../../../../src/protocol/transcription';
import { segmentWords } from '../../../../src/worker/transcription/whisper/words';

const segment = (start: number, end: number, text: string): Segment =>
  ({
    id: 0,
    seek: 0,
    start,
    end,
    text,
    tokens: [],
    temperature: 0,
    avg_logprob: 0,
    compression_ratio: 1,
    no_speech_prob: 0,
  }) as Segment;

describe('segmentWords', () => {
  it('shares each segment among its words by length; punctuation stays with the word before it', () => {
    expect(segmentWords([segment(1, 3, ' Ask not, what'), segment(3, 4, ' नमस्ते दोस्त।')])).toEqual([
      // 3, 4 and 4 characters of 11 over 2 s.
      { word: 'Ask', start: 1, end: 1.545 },
      { word: 'not,', start: 1.545, end: 2.273 },
      { word: 'what', start: 2.273, end: 3 },
      // 4 graphemes each (न म स् ते, दो स् त ।).
      { word: 'नमस्ते', start: 3, end: 3.5 },
      { word: 'दोस्त।', start: 3.5, end: 4 },
    ]);
  });

  it('every word lies inside its segment, in order, never overlapping; an empty segment has none', () => {
    const words = segmentWords([
      segment(0, 2.5, ' one two three four five'),
      segment(2.5, 2.5, ''),
      segment(4, 7, ' six'),
    ]);
    expect(words.map((w) => w.word)).toEqual(['one', 'two', 'three', 'four', 'five', 'six']);
    for (const [i, word] of words.entries()) {
      expect(word.end).toBeGreaterThanOrEqual(word.start);
      if (i > 0) expect(word.start).toBeGreaterThanOrEqual(words[i - 1]!.end);
    }
    expect(words.at(-2)!.end).toBe(2.5);
    expect(words.at(-1)).toEqual({ word: 'six', start: 4, end: 7 });
  });

  it('punctuation before the first word goes with it; a segment of punctuation only is one word', () => {
    expect(segmentWords([segment(0, 1, ' "Hi," she said'), segment(1, 2, ' ...')]).map((w) => w.word)).toEqual([
      '"Hi,"',
      'she',
      'said',
      '...',
    ]);
  });
});
