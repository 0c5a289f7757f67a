import { describe, expect, it } from 'vitest';
import { CitationFilter, citationsOf } from '../../../src/page/services/grounding/citations';
import type { SearchResult } from '../../../src/protocol/data';

const result = (file: string, text: string, pages?: [number, number]): SearchResult => ({
  file_id: file,
  filename: `${file}.pdf`,
  score: 1,
  attributes: {},
  content: [{ type: 'text', text }],
  chunk: { id: `${file}/0`, index: 0, headings: [], ...(pages ? { pages } : {}) },
});

describe('CitationFilter', () => {
  it('keeps markers naming supplied passages and removes invented ones, however the stream is cut', () => {
    const answer = 'Boats leave from pier seven [1]. The keeper writes at noon [2][7]. Tea is free [12].';
    const whole = new CitationFilter(2);
    const expected = 'Boats leave from pier seven [1]. The keeper writes at noon [2]. Tea is free.';
    expect(whole.push(answer) + whole.end()).toBe(expected);
    expect([...whole.invented]).toEqual([7, 12]);
    for (let size = 1; size < 6; size++) {
      const streamed = new CitationFilter(2);
      let out = '';
      for (let i = 0; i < answer.length; i += size) out += streamed.push(answer.slice(i, i + size));
      expect(out + streamed.end()).toBe(expected);
    }
  });

  it('holds back only an open marker, and lets a bracket that is no marker through at the end', () => {
    const filter = new CitationFilter(3);
    expect(filter.push('See [')).toBe('See');
    expect(filter.push('2')).toBe('');
    expect(filter.push('] and [x]')).toBe(' [2] and [x]');
    expect(filter.push(' [')).toBe('');
    expect(filter.end()).toBe(' [');
  });
});

describe('citationsOf', () => {
  it("gives OpenAI's file_citation per marker, at its index, with the passage's file, pages and text", () => {
    const text = 'Pier seven [1]. Noon [2].';
    const citations = citationsOf(text, [
      result('file-a', 'Boats leave from pier seven.', [1, 1]),
      result('file-b', 'Log at noon.'),
    ]);
    expect(citations).toEqual([
      {
        type: 'file_citation',
        index: 11,
        file_id: 'file-a',
        filename: 'file-a.pdf',
        passage: 1,
        quote: 'Boats leave from pier seven.',
        pages: [1, 1],
      },
      {
        type: 'file_citation',
        index: 21,
        file_id: 'file-b',
        filename: 'file-b.pdf',
        passage: 2,
        quote: 'Log at noon.',
      },
    ]);
    expect(text.slice(citations[0]!.index, citations[0]!.index + 3)).toBe('[1]');
  });
});
