import { describe, expect, it } from 'vitest';
import { DocumentError } from '../../../src/common/documents';
import { indexedText, lastErrorOf, prepareChunks, type ChunkTokenizer } from '../../../src/worker/data/ingest';
import { words } from '../../../src/common/retrieval';

const perWord: ChunkTokenizer = { count: (text) => Math.max(1, words(text).length), window: 50 };
const file = (name: string, text: string, type = '') => ({ name, type, bytes: new TextEncoder().encode(text) });

describe('prepareChunks', () => {
  it('cuts Markdown within the model window (auto) and embeds each chunk under its heading path', async () => {
    const body = Array.from({ length: 120 }, (_, i) => `w${i}`).join(' ');
    const { chunks, strategy } = await prepareChunks(
      file('guide.md', `# Guide\n\n## Hours\n\n${body}\n`),
      undefined,
      perWord,
    );
    expect(strategy).toEqual({ max_chunk_size_tokens: 50, chunk_overlap_tokens: 25 });
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks.map((chunk) => chunk.index)).toEqual(chunks.map((_, i) => i));
    const last = chunks.at(-1)!;
    expect(last.headings).toEqual(['Guide', 'Hours']);
    expect(last.indexed).toBe(`Guide › Hours\n${last.text}`);
    for (const chunk of chunks) expect(perWord.count(chunk.text)).toBeLessThanOrEqual(50);
  });

  it('honours a static strategy larger than the window, and keeps CSV fields per record', async () => {
    const text = Array.from({ length: 300 }, (_, i) => `w${i}`).join(' ');
    const { chunks: wide } = await prepareChunks(
      file('a.txt', text),
      { max_chunk_size_tokens: 200, chunk_overlap_tokens: 0 },
      perWord,
    );
    expect(wide.map((chunk) => perWord.count(chunk.text))).toEqual([200, 100]);
    const { chunks: rows } = await prepareChunks(file('p.csv', 'sku,name\nA1,Tea\nB2,Coffee\n'), undefined, perWord);
    expect(rows.map((row) => row.fields)).toEqual([
      { sku: 'A1', name: 'Tea' },
      { sku: 'B2', name: 'Coffee' },
    ]);
  });

  it('rejects unreadable files with a DocumentError that becomes last_error', async () => {
    const failure = await prepareChunks(file('x.png', 'not a picture', 'image/png'), undefined, perWord).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(DocumentError);
    expect(lastErrorOf(failure)).toMatchObject({ code: 'unsupported_file' });
    expect(lastErrorOf(new Error('disk on fire'))).toEqual({ code: 'server_error', message: 'disk on fire' });
  });
});

describe('indexedText', () => {
  it('is the text alone without headings', () => {
    expect(indexedText([], 'plain')).toBe('plain');
  });
});
