import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { subtitles } from '../../../src/page/api/audio/_subtitles';
import type { Segment } from '../../../src/protocol/transcription';
import { checkSrt, checkVtt } from '../../support/subtitles';

const segment = (start: number, end: number, text: string): Segment => ({
  id: 0,
  seek: 0,
  start,
  end,
  text,
  tokens: [],
  temperature: 0,
  avg_logprob: 0,
  compression_ratio: 0,
  no_speech_prob: 0,
});

describe('subtitles', () => {
  it("the issue's inverted cue never reaches the file; blank text and markup are handled", () => {
    const srt = subtitles([segment(30, 37.32, ' a'), segment(37.32, 33.92, ' b'), segment(40, 41, '  ')], 'srt');
    expect(srt).not.toContain('00:00:37,320 --> 00:00:33,920');
    expect(checkSrt(srt).map((c) => c.text)).toEqual(['a', 'b']);
    expect(checkVtt(subtitles([segment(0, 1, ' <b> & -->')], 'vtt'))[0]!.text).toBe('&lt;b&gt; &amp; --&gt;');
  });
  it('any segments give srt and vtt that parse, numbered, ordered, never ending before they start', () => {
    const time = fc.double({ min: 0, max: 5000, noNaN: true });
    fc.assert(
      fc.property(fc.array(fc.tuple(time, time, fc.string({ maxLength: 12 }))), (parts) => {
        const segments = parts.map(([start, end, text]) => segment(start, end, text));
        for (const cues of [checkSrt(subtitles(segments, 'srt')), checkVtt(subtitles(segments, 'vtt'))]) {
          let last = 0;
          for (const cue of cues) {
            expect(cue.start).toBeGreaterThanOrEqual(last);
            expect(cue.end).toBeGreaterThanOrEqual(cue.start);
            last = cue.end;
          }
        }
      }),
    );
  });
});
