import { describe, expect, it } from 'vitest';
import { StreamingDecoder } from '../../../src/text/detokenizer';
import { llamaTokenizer } from './support';

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
