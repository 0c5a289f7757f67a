import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { carryUnfinished, unfinishedTail } from '../../../../src/worker/transcription/whisper/utf8';

const encode = (text: string) => [...new TextEncoder().encode(text)];
const decode = (bytes: number[]) => new TextDecoder().decode(Uint8Array.from(bytes));

describe('unfinishedTail', () => {
  it('counts the bytes of a character that is not finished', () => {
    const ka = encode('क'); // three bytes
    expect(unfinishedTail(encode('ab'))).toBe(0);
    expect(unfinishedTail(ka)).toBe(0);
    expect(unfinishedTail(ka.slice(0, 1))).toBe(1);
    expect(unfinishedTail([0x61, ...ka.slice(0, 2)])).toBe(2);
    expect(unfinishedTail([0x61, 0x80])).toBe(0);
  });
});

describe('carryUnfinished', () => {
  it('on any text cut into byte tokens and runs anywhere: every run but the last decodes without replacement characters, and the whole text is kept', () => {
    fc.assert(
      fc.property(
        // Text that holds no U+FFFD of its own: one in the output is then a cut character.
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((text) => !text.includes('\uFFFD')),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 4 }),
        (text, tokenCuts, runCuts) => {
          const bytes = encode(text);
          // Tokens: byte runs cut at arbitrary points; token id i stands for pieces[i].
          const edges = [...new Set([0, ...tokenCuts.map((c) => c % bytes.length), bytes.length])].sort(
            (a, b) => a - b,
          );
          const pieces = edges.slice(1).map((end, i) => bytes.slice(edges[i], end));
          const ids = pieces.map((_, i) => i);
          const splits = [...new Set([0, ...runCuts.map((c) => c % ids.length), ids.length])].sort((a, b) => a - b);
          const runs = splits.slice(1).map((end, i) => {
            const textTokens = ids.slice(splits[i], end);
            return { textTokens, tokens: [...textTokens] };
          });
          carryUnfinished(runs, (id) => pieces[id]!);
          const texts = runs.map((run) => decode(run.textTokens.flatMap((id) => pieces[id]!)));
          expect(texts.join('')).toBe(text);
          for (const part of texts) expect(part).not.toContain('\uFFFD');
          expect(runs.flatMap((run) => run.tokens)).toEqual(ids);
        },
      ),
    );
  });
});

describe('WhisperTokenizer.bytes', () => {
  it('gives back the UTF-8 bytes of byte-level tokens', async () => {
    const { WhisperTokenizer } = await import('../../../../src/worker/transcription/whisper/tokenizer');
    const { tokenizerJson } = await import('../../../fixtures/whisper/tokenizer');
    const tokenizer = new WhisperTokenizer(tokenizerJson(), {});
    const text = ' नमस्ते, world ✓';
    expect(tokenizer.encode(text).flatMap((id) => tokenizer.bytes(id))).toEqual(encode(text));
  });
});
