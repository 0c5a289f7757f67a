import { describe, expect, it } from 'vitest';
import type { WhisperConfig } from '../../../../src/worker/transcription/whisper/config';
import { applyWhisperRules, pickToken } from '../../../../src/worker/transcription/whisper/logits';
import type { Pass } from '../../../../src/worker/transcription/whisper/seek';
import { splitSegments } from '../../../../src/worker/transcription/whisper/segments';
import { windows } from '../../../../src/worker/transcription/whisper/plan';

const ids = {
  eot: 50257,
  sot: 50258,
  translate: 50358,
  transcribe: 50359,
  startOfPrev: 50361,
  noSpeech: 50362,
  noTimestamps: 50363,
  timestampBegin: 50364,
};
const config: WhisperConfig = {
  ids,
  languages: new Map([['en', 50259]]),
  suppressTokens: [1],
  beginSuppressTokens: [220, 50257],
  maxLength: 448,
  maxInitialTimestampIndex: 50,
  decoderLayers: 1,
  heads: 1,
  headDim: 1,
  melBins: 80,
};
const ts = (seconds: number) => ids.timestampBegin + Math.round(seconds / 0.02);
const logits = () => new Float32Array(51865);

describe('windows', () => {
  it('keeps one window for 30 s or less', () => {
    expect(windows(480000)).toEqual([{ from: 0, keepFrom: 0, keepTo: Infinity }]);
  });
  it('cuts longer audio into 30 s windows 20 s apart, each keeping its middle, the last up to the end', () => {
    expect(windows(44 * 16000)).toEqual([
      { from: 0, keepFrom: 0, keepTo: 25 },
      { from: 20 * 16000, keepFrom: 25, keepTo: 44 },
    ]);
    const plan = windows(70 * 16000);
    expect(plan.map((w) => [w.from / 16000, w.keepFrom, w.keepTo])).toEqual([
      [0, 0, 25],
      [20, 25, 45],
      [40, 45, 70],
    ]);
  });
});

describe('applyWhisperRules', () => {
  it('suppresses tokens always, blank and end-of-text first', () => {
    const first = logits();
    applyWhisperRules(first, [], config, false);
    expect([first[1], first[220], first[50257]]).toEqual([-Infinity, -Infinity, -Infinity]);
    const later = logits();
    applyWhisperRules(later, [100], config, false);
    expect([later[1], later[220], later[50257]]).toEqual([-Infinity, 0, 0]);
  });
  it('with timestamps: a timestamp first, no later than max_initial_timestamp_index', () => {
    const first = logits();
    applyWhisperRules(first, [], config, true);
    expect(first[100]).toBe(-Infinity);
    expect(first[ts(1)]).toBe(0);
    expect(first[ts(1.02)]).toBe(-Infinity);
  });
  it('with timestamps: pairs — text after a lone opening timestamp, then timestamps or end after text + timestamp', () => {
    const afterOpen = logits();
    applyWhisperRules(afterOpen, [ts(0)], config, true);
    expect(afterOpen[ts(1)]).toBe(-Infinity);
    const afterClose = logits();
    afterClose[ids.eot] = 10;
    applyWhisperRules(afterClose, [ts(0), 100, ts(1)], config, true);
    expect(afterClose[100]).toBe(-Infinity);
    expect(afterClose[ids.eot]).toBe(10);
  });
  it('forces a timestamp when the timestamps together outweigh every text token', () => {
    const row = logits();
    row[100] = 5;
    for (let id = ids.timestampBegin; id < row.length; id++) row[id] = 2;
    applyWhisperRules(row, [ts(0), 100], config, true);
    expect(row[100]).toBe(-Infinity);
  });
});

describe('pickToken', () => {
  it('takes the first best at temperature 0 and samples by softmax otherwise', () => {
    expect(pickToken(Float32Array.of(1, 3, 3), 0)).toBe(1);
    expect(pickToken(Float32Array.of(0, -Infinity, 0), 1, () => 0.75)).toBe(2);
    expect(pickToken(Float32Array.of(0, -Infinity, 0), 1, () => 0.25)).toBe(0);
  });
});

describe('splitSegments', () => {
  it('opens at a timestamp, closes at the next different one, and keeps trailing text open', () => {
    const pass: Pass = { seek: 0, avgLogprob: -1, noSpeechProb: 0, temperature: 0, compressionRatio: 1 };
    const tokens = [ts(0), 10, 11, ts(1.5), ts(1.5), 12, ts(2), 13].map((token) => ({ token, pass: 0 }));
    const segments = splitSegments(tokens, [pass], ids);
    expect(segments.map((s) => [s.start, s.end, s.textTokens])).toEqual([
      [0, 1.5, [10, 11]],
      [1.5, 2, [12]],
      [undefined, undefined, [13]],
    ]);
  });
});
