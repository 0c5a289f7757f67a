import type { Block } from './types';

/** Plain text: one block per paragraph (blank-line separated), whitespace inside lines kept. */
export function parseText(text: string): Block[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n+/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean)
    .map((paragraph) => ({ text: paragraph, headings: [] }));
}
