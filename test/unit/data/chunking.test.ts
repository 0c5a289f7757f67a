import { describe, expect, it } from 'vitest';
import { chunkDocument, resolveChunking, type CountTokens } from '../../../src/common/documents/chunking';
import type { Block } from '../../../src/common/documents';
import { words } from '../../../src/common/retrieval';

/** One token per word (and per punctuation mark), as a stand-in tokenizer with known counts. */
const perWord: CountTokens = (text) => Math.max(1, words(text).length);
const prose = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `w${from + i}`).join(' ');

describe('chunkDocument', () => {
  it('windows prose by tokens with the requested overlap', () => {
    const blocks: Block[] = [{ text: prose(100), headings: [] }];
    const chunks = chunkDocument(blocks, { max_chunk_size_tokens: 30, chunk_overlap_tokens: 10 }, perWord);
    for (const chunk of chunks) expect(chunk.tokens).toBeLessThanOrEqual(30);
    expect(chunks[0]!.text).toBe(prose(30));
    expect(chunks[1]!.text.startsWith('w20 ')).toBe(true);
    expect(chunks.at(-1)!.text.endsWith('w99')).toBe(true);
    // every word is in some chunk, in order
    const seen = new Set(chunks.flatMap((c) => c.text.split(' ')));
    expect(seen.size).toBe(100);
    expect(chunks.map((c) => c.index)).toEqual(chunks.map((_, i) => i));
  });

  it('makes one chunk of a short text and none of an empty one', () => {
    expect(chunkDocument([{ text: 'hello world', headings: ['H'] }], resolveChunking(undefined, 510), perWord)).toEqual(
      [{ index: 0, text: 'hello world', tokens: 2, headings: ['H'] }],
    );
    expect(chunkDocument([], resolveChunking(undefined, 510), perWord)).toEqual([]);
  });

  it('keeps the heading path where a chunk starts and the pages it spans', () => {
    const blocks: Block[] = [
      { text: 'Intro', headings: ['Intro'], page: 1 },
      { text: prose(12), headings: ['Intro'], page: 1 },
      { text: 'Setup', headings: ['Setup'], page: 2 },
      { text: prose(12, 100), headings: ['Setup'], page: 3 },
    ];
    const chunks = chunkDocument(blocks, { max_chunk_size_tokens: 13, chunk_overlap_tokens: 0 }, perWord);
    expect(chunks[0]).toMatchObject({ headings: ['Intro'], pages: [1, 1] });
    expect(chunks[1]).toMatchObject({ headings: ['Setup'], pages: [2, 3] });
    expect(chunks[1]!.text.startsWith('Setup\n\nw100')).toBe(true);
  });

  it('gives each record its own chunk with its fields', () => {
    const blocks: Block[] = [
      { text: 'sku: A1\nname: tea', headings: [], fields: { sku: 'A1', name: 'tea' } },
      { text: 'sku: B2\nname: coffee', headings: [], fields: { sku: 'B2', name: 'coffee' } },
    ];
    const chunks = chunkDocument(blocks, { max_chunk_size_tokens: 100, chunk_overlap_tokens: 50 }, perWord);
    expect(chunks.map((c) => [c.text, c.fields])).toEqual([
      ['sku: A1\nname: tea', { sku: 'A1', name: 'tea' }],
      ['sku: B2\nname: coffee', { sku: 'B2', name: 'coffee' }],
    ]);
  });

  it('keeps Hindi words whole', () => {
    const text = 'यह एक परीक्षण वाक्य है जो हिंदी में लिखा गया है';
    const chunks = chunkDocument(
      [{ text, headings: [] }],
      { max_chunk_size_tokens: 4, chunk_overlap_tokens: 1 },
      perWord,
    );
    for (const chunk of chunks) for (const word of chunk.text.split(' ')) expect(text.split(' ')).toContain(word);
    expect(chunks.at(-1)!.text.endsWith('है')).toBe(true);
  });

  it('resolves auto to 800/400 within the model window and rejects a bad overlap', () => {
    expect(resolveChunking(undefined, 8192)).toEqual({ max_chunk_size_tokens: 800, chunk_overlap_tokens: 400 });
    expect(resolveChunking(undefined, 510)).toEqual({ max_chunk_size_tokens: 510, chunk_overlap_tokens: 255 });
    const strategy = { max_chunk_size_tokens: 1000, chunk_overlap_tokens: 0 };
    expect(resolveChunking(strategy, 510)).toBe(strategy);
    expect(() => chunkDocument([], { max_chunk_size_tokens: 100, chunk_overlap_tokens: 60 }, perWord)).toThrow(
      RangeError,
    );
  });
});
