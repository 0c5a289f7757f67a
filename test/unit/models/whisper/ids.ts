import type { WhisperConfig } from '../../../../src/worker/transcription/whisper/config';

export const ids = {
  eot: 50257,
  sot: 50258,
  translate: 50358,
  transcribe: 50359,
  startOfPrev: 50361,
  noSpeech: 50362,
  noTimestamps: 50363,
  timestampBegin: 50364,
};

export const config: WhisperConfig = {
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

/** The timestamp token for a time in seconds. */
export const ts = (seconds: number) => ids.timestampBegin + Math.round(seconds / 0.02);
