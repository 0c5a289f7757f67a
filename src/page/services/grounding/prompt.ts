import type { ChatMessage } from '../../../protocol/chat';
import type { SearchResult } from '../../../protocol/data';

/** Characters per token assumed when fitting passages into the chat model's context (**Choice**: safe for Indic scripts). */
const CHARS_PER_TOKEN = 2.5;
/** Tokens kept for the instructions and the question around the passages. */
const OVERHEAD_TOKENS = 200;

export const GROUNDING_RULES =
  'Answer the question using only the numbered passages below. After each sentence, cite the passages it ' +
  'comes from as [1], [2]. If the passages do not hold the answer, say that the documents do not say.';

/** How the grounded prompt's system message begins, before its passages: known before retrieval ends. */
export const groundingPreamble = (instructions?: string) =>
  [instructions, GROUNDING_RULES].filter(Boolean).join('\n\n');

/** A passage's label: its number, file, pages and heading path. */
function label(result: SearchResult, n: number): string {
  const where = [
    result.filename,
    result.chunk.pages &&
      (result.chunk.pages[0] === result.chunk.pages[1]
        ? `p. ${result.chunk.pages[0]}`
        : `pp. ${result.chunk.pages[0]}–${result.chunk.pages[1]}`),
    result.chunk.headings.length ? result.chunk.headings.join(' › ') : undefined,
  ].filter(Boolean);
  return `[${n}] (${where.join(', ')})`;
}

/**
 * The passages that fit the chat model's context (best first, whole passages only) and the
 * messages that ask for a grounded answer with numbered citations.
 */
export function groundedPrompt(
  query: string,
  results: SearchResult[],
  budget: { contextTokens: number; answerTokens: number },
  instructions?: string,
): { passages: SearchResult[]; messages: ChatMessage[] } {
  let room = (budget.contextTokens - budget.answerTokens - OVERHEAD_TOKENS) * CHARS_PER_TOKEN - query.length;
  const passages: SearchResult[] = [];
  const blocks: string[] = [];
  for (const result of results) {
    const block = `${label(result, passages.length + 1)}\n${result.content.map((part) => part.text).join('\n')}`;
    if (block.length > room) break;
    room -= block.length + 2;
    passages.push(result);
    blocks.push(block);
  }
  const system = [groundingPreamble(instructions), blocks.join('\n\n')].filter(Boolean).join('\n\n');
  return {
    passages,
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: query },
    ],
  };
}
