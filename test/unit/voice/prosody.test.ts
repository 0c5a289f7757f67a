import { describe, expect, it } from 'vitest';
import { pitchRange, planClauses, speakingRate, splitClauses } from '../../../src/worker/speech/prosody';

describe('TTS prosody', () => {
  it('splits clauses after Latin, Devanagari and Arabic-script punctuation', () => {
    expect(splitClauses('नमस्ते, आप कैसे हैं? ठीक। Fine; ok')).toEqual(['नमस्ते,', 'आप कैसे हैं?', 'ठीक।', 'Fine;', 'ok']);
    expect(splitClauses('السلام علیکم، آپ کیسے ہیں؟')).toEqual(['السلام علیکم،', 'آپ کیسے ہیں؟']);
    expect(splitClauses('... !!')).toEqual([]);
    expect(splitClauses('हम आए॥ ᱥᱟᱱᱛᱟᱲᱤ᱾ ꯃꯤꯇꯩ꯫ ok')).toEqual(['हम आए॥', 'ᱥᱟᱱᱛᱟᱲᱤ᱾', 'ꯃꯤꯇꯩ꯫', 'ok']);
  });

  it('maps speed to the speaking rate and style to the pitch range', () => {
    expect(speakingRate(1)).toBe(175);
    expect(speakingRate(0.5)).toBe(88);
    expect(speakingRate(2)).toBe(350);
    expect(pitchRange(0)).toBe(20);
    expect(pitchRange(0.35)).toBe(48);
    expect(pitchRange(1)).toBe(100);
  });

  it('lets clause pitch wander more as stability falls, the same way for the same text', () => {
    const text = 'one, two, three. four, five, six.';
    const spread = (stability: number) => {
      const pitches = planClauses(text, { speed: 1, stability, style: 0.35 }).map((clause) => clause.pitch);
      return Math.max(...pitches) - Math.min(...pitches);
    };
    expect(spread(1)).toBe(0);
    expect(spread(0.5)).toBeGreaterThanOrEqual(14);
    expect(spread(0)).toBeGreaterThanOrEqual(28);
    expect(planClauses(text, { speed: 1, stability: 0, style: 0.35 })).toEqual(
      planClauses(text, { speed: 1, stability: 0, style: 0.35 }),
    );
  });

  it('shortens pauses as speed rises', () => {
    const pauses = (speed: number) =>
      planClauses('a, b.', { speed, stability: 1, style: 0.35 }).map((clause) => clause.pauseMs);
    expect(pauses(1)).toEqual([180, 380]);
    expect(pauses(2)).toEqual([90, 190]);
  });
});
