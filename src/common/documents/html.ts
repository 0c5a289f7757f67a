import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import type { Block } from './types';

/** Elements that are never content. */
const DROP =
  'script, style, noscript, template, svg, canvas, iframe, object, form, button, select, [hidden], [aria-hidden="true"]';
/** Page furniture dropped when Readability finds no article. */
const FURNITURE =
  'nav, header, footer, aside, [role="navigation"], [role="banner"], [role="contentinfo"], [role="complementary"]';
/** Elements that end a run of text. */
const BLOCK = new Set(
  'ADDRESS ARTICLE ASIDE BLOCKQUOTE BODY BR DD DETAILS DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER HEADER HR LI MAIN NAV OL P PRE SECTION SUMMARY TABLE TBODY TD TH THEAD TR UL'.split(
    ' ',
  ),
);
const HEADING = /^H([1-6])$/;

interface Walker {
  blocks: Block[];
  headings: string[];
  run: string;
}

function flush(state: Walker): void {
  const text = state.run
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .trim();
  if (text) state.blocks.push({ text, headings: state.headings.filter(Boolean) });
  state.run = '';
}

function walk(node: Node, state: Walker): void {
  if (node.nodeType === 3) {
    state.run += node.textContent ?? '';
    return;
  }
  if (node.nodeType !== 1) return;
  const element = node as Element;
  const level = HEADING.exec(element.tagName)?.[1];
  if (level) {
    flush(state);
    const depth = Number(level);
    const title = (element.textContent ?? '').replace(/\s+/g, ' ').trim();
    state.headings.length = depth - 1;
    state.headings[depth - 1] = title;
    for (let i = 0; i < depth; i++) state.headings[i] ??= '';
    if (title) state.blocks.push({ text: title, headings: state.headings.filter(Boolean) });
    return;
  }
  const block = BLOCK.has(element.tagName);
  if (block) flush(state);
  if (element.tagName === 'TD' || element.tagName === 'TH') state.run += ' ';
  for (const child of Array.from(element.childNodes)) walk(child, state);
  if (block) flush(state);
}

function blocksOf(root: Element, title: string | undefined): Block[] {
  const state: Walker = { blocks: [], headings: [], run: '' };
  walk(root, state);
  flush(state);
  const { blocks } = state;
  // Readability takes the page's title out of the article; keep it as the top heading.
  if (title && !blocks.some((b) => b.headings[0] === title))
    for (const block of blocks) block.headings = [title, ...block.headings];
  return blocks;
}

/**
 * An HTML page's readable text: scripts, styles and hidden elements dropped, then Mozilla's
 * Readability (Firefox Reader View) keeps the article and drops navigation, ads and footers;
 * a page where it finds no article loses its nav/header/footer/aside instead. Blocks carry the
 * h1–h6 path above them.
 */
export function parseHtml(html: string): { title?: string; blocks: Block[] } {
  const { document } = parseHTML(html.includes('<html') ? html : `<!doctype html><html><body>${html}</body></html>`);
  for (const element of Array.from(document.querySelectorAll(DROP))) element.remove();
  const title = document.querySelector('title')?.textContent?.trim() || undefined;
  const fallback = document.body?.cloneNode(true) as Element | undefined;
  const article = new Readability(document as unknown as Document, { charThreshold: 200 }).parse();
  if (article?.content && (article.textContent ?? '').trim()) {
    const { document: content } = parseHTML(`<!doctype html><html><body>${article.content}</body></html>`);
    const blocks = blocksOf(content.body as unknown as Element, article.title || title);
    if (blocks.length) return { title: article.title || title, blocks };
  }
  if (!fallback) return { title, blocks: [] };
  for (const element of Array.from(fallback.querySelectorAll(FURNITURE))) element.remove();
  return { title, blocks: blocksOf(fallback, title) };
}
