import { describe, expect, it } from 'vitest';
import { SentenceStream, endsSentence, splitSentences } from '../../../src/widgets/sentences';

describe('splitSentences', () => {
  it('cuts English and Hindi text at sentence ends, with offsets into the source', () => {
    const text = '  Hello there. How are you?  नमस्ते। आप कैसे हैं? Fine!';
    const sentences = splitSentences(text, 'hi');
    expect(sentences.map((s) => s.text)).toEqual(['Hello there.', 'How are you?', 'नमस्ते।', 'आप कैसे हैं?', 'Fine!']);
    for (const s of sentences) expect(text.slice(s.start, s.end)).toBe(s.text);
  });

  it('a line break ends a sentence; blank text has none', () => {
    expect(splitSentences('A title\nThe body.').map((s) => s.text)).toEqual(['A title', 'The body.']);
    expect(splitSentences('  \n ')).toEqual([]);
  });
});

describe('SentenceStream', () => {
  it('gives each sentence once the next has begun, and the rest on flush', () => {
    const stream = new SentenceStream('en');
    const out: string[] = [];
    for (const piece of ['Namaste! I am', ' Vaani.', ' This is', ' the end', '.']) out.push(...stream.push(piece));
    expect(out).toEqual(['Namaste!', 'I am Vaani.']);
    expect(stream.flush()).toBe('This is the end.');
    expect(stream.flush()).toBeUndefined();
  });

  it('does not cut inside a number or an abbreviation-free decimal', () => {
    const stream = new SentenceStream('en');
    expect(stream.push('It costs 3.5')).toEqual([]);
    expect(stream.push(' rupees. Next')).toEqual(['It costs 3.5 rupees.']);
  });
});

describe('endsSentence (the voice assistant ends a turn at a short pause when its transcript does)', () => {
  it('a sentence terminator in any script ends it, before closing quotes and brackets', () => {
    for (const text of [
      'What time is it?',
      'Stop!',
      ' Hello there. ',
      'नमस्ते।',
      'كيف حالك؟',
      '你好。',
      'He said "go."',
      '(yes.)',
    ])
      expect(endsSentence(text), text).toBe(true);
  });

  it('a phrase, a comma or an ellipsis goes on', () => {
    for (const text of ['', 'my fellow Americans', 'and so,', 'well...', 'well…', 'first of all:'])
      expect(endsSentence(text), text).toBe(false);
  });
});
