import { describe, expect, it } from 'vitest';
import { GROUNDING_RULES, groundedPrompt } from '../../../src/page/services/grounding/prompt';
import type { SearchResult } from '../../../src/protocol/data';

const result = (n: number, text: string): SearchResult => ({
  file_id: `file-${n}`,
  filename: `doc${n}.pdf`,
  score: 1 / n,
  attributes: {},
  content: [{ type: 'text', text }],
  chunk: { id: `c${n}`, index: 0, headings: ['Guide', 'Hours'], pages: [n, n + 1] },
});

describe('groundedPrompt', () => {
  it('numbers the passages with file, pages and headings after the rules, and asks the question as the user', () => {
    const { passages, messages } = groundedPrompt(
      'When?',
      [result(1, 'Opens at nine.'), result(2, 'Closes at six.')],
      { contextTokens: 4096, answerTokens: 256 },
      'Be brief.',
    );
    expect(passages).toHaveLength(2);
    expect(messages[1]).toEqual({ role: 'user', content: 'When?' });
    expect(messages[0]!.content).toBe(
      `Be brief.\n\n${GROUNDING_RULES}\n\n[1] (doc1.pdf, pp. 1–2, Guide › Hours)\nOpens at nine.\n\n[2] (doc2.pdf, pp. 2–3, Guide › Hours)\nCloses at six.`,
    );
  });

  it("keeps only the best passages that fit the chat model's context, whole", () => {
    const long = (n: number) => result(n, 'x'.repeat(1000));
    const { passages } = groundedPrompt('q', [long(1), long(2), long(3)], { contextTokens: 1300, answerTokens: 200 });
    expect(passages.map((p) => p.file_id)).toEqual(['file-1', 'file-2']);
    expect(groundedPrompt('q', [long(1)], { contextTokens: 300, answerTokens: 200 }).passages).toEqual([]);
  });
});
