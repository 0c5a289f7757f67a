import type { Nodes, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { Block } from './types';

/** Nodes whose children are blocks of their own, joined by new lines. */
const CONTAINERS = new Set(['root', 'list', 'listItem', 'blockquote', 'table', 'footnoteDefinition']);

function plain(node: Nodes): string {
  if (node.type === 'image') return node.alt ?? '';
  if ('value' in node && node.type !== 'html') return node.value;
  if (node.type === 'break') return '\n';
  if (!('children' in node)) return '';
  const parts = (node.children as Nodes[]).map(plain);
  if (node.type === 'tableRow') return parts.join(' | ');
  return parts.join(CONTAINERS.has(node.type) ? '\n' : '');
}

/**
 * Markdown (CommonMark, by mdast-util-from-markdown): one block per top-level element with the
 * heading path in effect above it; headings are blocks too, so their words are searchable.
 */
export function parseMarkdown(text: string): Block[] {
  const root: Root = fromMarkdown(text);
  const headings: string[] = [];
  const blocks: Block[] = [];
  for (const node of root.children) {
    const content = plain(node).trim();
    if (node.type === 'heading') {
      headings.length = node.depth - 1;
      headings[node.depth - 1] = content;
      for (let i = 0; i < headings.length; i++) headings[i] ??= '';
    }
    if (content) blocks.push({ text: content, headings: headings.filter(Boolean) });
  }
  return blocks;
}
