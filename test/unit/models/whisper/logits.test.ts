import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyWhisperRules, pickToken } from '../../../../src/worker/transcription/whisper/logits';
import { config, ts } from './ids';

const logits = () => new Float32Array(51865);

describe('applyWhisperRules: OpenAI timestamp rules', () => {
  it('timestamps never go back: a segment closes after it opened, the next opens no earlier than the last closed', () => {
    const closing = logits();
    applyWhisperRules(closing, [ts(0), ts(0), ts(5), 100], config, true);
    expect([closing[ts(4.98)], closing[ts(5)], closing[ts(5.02)]]).toEqual([-Infinity, -Infinity, 0]);
    const opening = logits();
    applyWhisperRules(opening, [ts(2), 100, ts(5)], config, true);
    expect([opening[ts(4.98)], opening[ts(5)], opening[ts(6)]]).toEqual([-Infinity, 0, 0]);
  });
  it('on random logits, the tokens it lets through make ordered, paired timestamps', () => {
    // A small vocabulary: 50 text tokens, the specials, 200 timestamps.
    const smallIds = {
      eot: 50,
      sot: 51,
      translate: 52,
      transcribe: 53,
      startOfPrev: 54,
      noSpeech: 55,
      noTimestamps: 56,
      timestampBegin: 57,
    };
    const small = {
      ...config,
      ids: smallIds,
      suppressTokens: [],
      beginSuppressTokens: [],
      maxInitialTimestampIndex: 50,
    };
    const vocab = smallIds.timestampBegin + 200;
    const isTs = (token: number) => token >= smallIds.timestampBegin;
    fc.assert(
      fc.property(
        fc.array(fc.float({ noNaN: true, min: -20, max: 20 }), { minLength: 40, maxLength: 40 }),
        fc.integer(),
        (noise, seed) => {
          let state = seed >>> 0;
          const random = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
          const generated: number[] = [];
          for (let step = 0; step < noise.length; step++) {
            const row = new Float32Array(vocab).map((_, id) => (id % 7 === step % 7 ? noise[step]! : random() * 10));
            applyWhisperRules(row, generated, small, true);
            const token = pickToken(row, 1, random);
            if (token === smallIds.eot) break;
            generated.push(token);
          }
          const times = generated.filter(isTs);
          for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThanOrEqual(times[i - 1]!);
          // A text stretch is opened by a timestamp, and closed by a strictly later one when closed.
          expect(isTs(generated[0] ?? smallIds.timestampBegin)).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });
});
