import { describe, expect, it } from 'vitest';
import { decodeAudio } from '../../../src/common/audio/decode';
import { encodeClip, ENCODINGS } from '../../browser/support/audio-mix';

describe('decodeAudio on the encodings browsers and phones upload', () => {
  it.each(Object.keys(ENCODINGS) as (keyof typeof ENCODINGS)[])(
    '%s of the LibriSpeech clip decodes to its 13.3 s',
    async (encoding) => {
      const decoded = await decodeAudio(encodeClip('1272-141231-0002.mp3', encoding));
      expect(decoded.channels[0]!.length / decoded.sampleRate).toBeCloseTo(13.335, 1);
      expect([16000, 48000]).toContain(decoded.sampleRate);
    },
  );
});
