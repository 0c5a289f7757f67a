import { describe, expect, it } from 'vitest';
import type { DecodeResult } from '../../../../src/worker/transcription/whisper/decoder';
import {
  compressionRatio,
  decodeWithFallback,
  DEFAULT_GUARDS,
  temperatures,
  withDefaults,
} from '../../../../src/worker/transcription/whisper/guards';
import { PreviousText } from '../../../../src/worker/transcription/whisper/previous-text';
import { config, ids } from './ids';

const result = (logprob: number, tokens = [1, 2, 3], noSpeechProb = 0, looped = false): DecodeResult => ({
  tokens,
  logprobs: tokens.map(() => logprob),
  noSpeechProb,
  looped,
});
const text = (tokens: number[]) => tokens.map((t) => `w${t} `).join('');

/** A decoder that answers from a list, one entry per temperature it is asked for. */
function scripted(answers: DecodeResult[]) {
  const asked: number[] = [];
  return {
    asked,
    decode: async (temperature: number) => {
      asked.push(temperature);
      return answers[Math.min(asked.length - 1, answers.length - 1)]!;
    },
  };
}

describe('temperatures', () => {
  it('go up by the increment to 1.0, or stay at the request’s with increment 0', () => {
    expect(temperatures(0, 0.2)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(temperatures(0.5, 0.2)).toEqual([0.5, 0.7, 0.9]);
    expect(temperatures(0.3, 0)).toEqual([0.3]);
  });
});

describe('decodeWithFallback', () => {
  it('keeps the first pass that passes the guards', async () => {
    const decoder = scripted([result(-2), result(-0.3)]);
    const kept = await decodeWithFallback(decoder.decode, text, DEFAULT_GUARDS, 0);
    expect(decoder.asked).toEqual([0, 0.2]);
    expect(kept).toMatchObject({ temperature: 0.2, avgLogprob: -0.3, silent: false });
  });
  it('falls back on a high compression ratio and on a cut loop, keeping the last attempt when none passes', async () => {
    const repetitive = result(-0.1, Array(60).fill(7));
    expect(await compressionRatio(text(repetitive.tokens))).toBeGreaterThan(2.4);
    const decoder = scripted([repetitive, result(-0.1, [1, 2], 0, true), result(-3)]);
    const kept = await decodeWithFallback(decoder.decode, text, DEFAULT_GUARDS, 0);
    expect(decoder.asked).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(kept).toMatchObject({ temperature: 1, avgLogprob: -3 });
  });
  it('takes likely silence at once: no fallback, marked silent', async () => {
    const decoder = scripted([result(-1.5, [1], 0.9)]);
    const kept = await decodeWithFallback(decoder.decode, text, DEFAULT_GUARDS, 0);
    expect(decoder.asked).toEqual([0]);
    expect(kept.silent).toBe(true);
  });
  it('a confident pass is not silence, whatever no_speech_prob says', async () => {
    const kept = await decodeWithFallback(scripted([result(-0.2, [1], 0.9)]).decode, text, DEFAULT_GUARDS, 0);
    expect(kept.silent).toBe(false);
  });
  it('with the increment at 0 decodes once', async () => {
    const decoder = scripted([result(-5)]);
    await decodeWithFallback(decoder.decode, text, { ...DEFAULT_GUARDS, temperatureIncrement: 0 }, 0);
    expect(decoder.asked).toEqual([0]);
  });
});

describe('PreviousText', () => {
  it('prompts with the request’s prompt and kept passes, forgets after a pass above 0.5', () => {
    const previous = new PreviousText([5], true, config);
    expect(previous.prompt()).toEqual([ids.startOfPrev, 5]);
    previous.add([6, 7], 0.4);
    expect(previous.prompt()).toEqual([ids.startOfPrev, 5, 6, 7]);
    previous.add([8], 0.6);
    expect(previous.prompt()).toEqual([]);
    previous.add([9], 0);
    expect(previous.prompt()).toEqual([ids.startOfPrev, 9]);
  });
  it('keeps the latest maxLength / 2 − 1 tokens, and nothing when conditioning is off', () => {
    const previous = new PreviousText([], true, config);
    previous.add(
      Array.from({ length: 300 }, (_, i) => i),
      0,
    );
    expect(previous.prompt()).toHaveLength(224);
    expect(previous.prompt().at(-1)).toBe(299);
    const off = new PreviousText([5], false, config);
    expect(off.prompt()).toEqual([ids.startOfPrev, 5]);
    off.add([6], 0);
    expect(off.prompt()).toEqual([]);
  });
});

describe('withDefaults', () => {
  it('keeps the reference default for every field the request left undefined', () => {
    expect(withDefaults({ logprobThreshold: -2, noSpeechThreshold: undefined })).toEqual({
      ...DEFAULT_GUARDS,
      logprobThreshold: -2,
    });
  });
});
