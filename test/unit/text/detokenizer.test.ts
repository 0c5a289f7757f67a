import { describe, expect, it } from 'vitest';
import { GraphemeHold, StreamingDecoder } from '../../../src/common/text/detokenizer';
import { clusterCuts, llamaTokenizer, qwen3Tokenizer } from './support';

const tokenizer = llamaTokenizer();

const SAMPLES = {
  hindi: 'नमस्ते, आप कैसे हैं? मैं ठीक हूँ।',
  tamil: 'வணக்கம், நீங்கள் எப்படி இருக்கிறீர்கள்?',
  bengali: 'আমি বাংলায় গান গাই।',
  emoji: 'Family: 👨‍👩‍👧‍👦, flags 🇮🇳, thumbs 👍🏽 done.',
  mixed: 'Hello दुनिया 🌍 and வணக்கம் again',
};

describe('StreamingDecoder', () => {
  for (const [name, text] of Object.entries(SAMPLES)) {
    it(`streams ${name} token by token without splitting a character`, () => {
      const ids = tokenizer.encode(text);
      const stream = new StreamingDecoder((part) => tokenizer.decode(part));
      const pieces = ids.map((id) => stream.push(id));
      pieces.push(stream.flush());
      for (const piece of pieces) {
        expect(piece).not.toContain('\uFFFD');
        expect(piece).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      }
      expect(pieces.join('')).toBe(tokenizer.decode(ids));
      expect(pieces.join('').trim()).toBe(text);
    });
  }

  const byteIds = (text: string) =>
    Array.from(new TextEncoder().encode(text), (byte) =>
      tokenizer.id(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`)!,
    );

  it('holds a byte-fallback sequence until its character completes', () => {
    const ids = byteIds('ॐ');
    expect(ids).toHaveLength(3);
    const stream = new StreamingDecoder((part) => tokenizer.decode(part));
    expect(ids.map((id) => stream.push(id))).toEqual(['', '', 'ॐ']);
  });

  it('gives back an incomplete sequence at the end instead of dropping it', () => {
    const stream = new StreamingDecoder((part) => tokenizer.decode(part));
    for (const id of byteIds('ॐ').slice(0, 2)) expect(stream.push(id)).toBe('');
    expect(stream.flush()).toBe('\uFFFD');
  });
});

describe('GraphemeHold', () => {
  const qwen3 = qwen3Tokenizer();
  /** Streams `text` token by token through the decoder and the hold, as OutputText does. */
  const stream = (text: string) => {
    const decoder = new StreamingDecoder((ids) => qwen3.decode(ids));
    const hold = new GraphemeHold();
    const pieces = qwen3.encode(text).map((id) => hold.push(decoder.push(id)));
    pieces.push(hold.push(decoder.flush()) + hold.flush());
    return pieces;
  };

  for (const [name, text] of Object.entries(SAMPLES)) {
    it(`streams ${name} through Qwen3's tokenizer in whole grapheme clusters`, () => {
      const pieces = stream(text);
      expect(pieces.join('')).toBe(text);
      expect(clusterCuts(pieces)).toEqual([]);
    });
  }

  it("is needed: Qwen3's bare deltas cut Hindi and Tamil clusters (vowel signs and viramas are tokens of their own)", () => {
    for (const text of [SAMPLES.hindi, SAMPLES.tamil]) {
      const decoder = new StreamingDecoder((ids) => qwen3.decode(ids));
      const pieces = qwen3.encode(text).map((id) => decoder.push(id));
      pieces.push(decoder.flush());
      expect(clusterCuts(pieces).length).toBeGreaterThan(5);
    }
  });

  it('holds only the last cluster, releases a line feed at once, and gives everything back at the end', () => {
    const hold = new GraphemeHold();
    expect(hold.push('नमस')).toBe('नम');
    expect(hold.push('्')).toBe('');
    expect(hold.push('ते')).toBe('');
    expect(hold.push(', ')).toBe('स्ते,');
    expect(hold.push('ok\n')).toBe(' ok\n');
    expect(hold.push('👍')).toBe('');
    expect(hold.push('🏽')).toBe('');
    expect(hold.flush()).toBe('👍🏽');
    expect(hold.flush()).toBe('');
  });
});
