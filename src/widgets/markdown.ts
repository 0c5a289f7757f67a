import DOMPurify, { type Config } from 'dompurify';
import { marked } from 'marked';
import { vaaniPolicy } from './trusted';

/**
 * What an answer may keep: the tags `marked` writes for text, lists, code, quotes and tables, a few
 * inline ones, and links (`href`, whose scheme DOMPurify limits: no `javascript:` or `data:`). No
 * element that loads anything (img, media, style, svg, iframe, forms) and no attribute that does
 * (`style`, `background`, `src`, `poster`…); the text inside a removed element stays.
 */
const ANSWER: Config = {
  ALLOWED_TAGS: [
    ...['p', 'br', 'hr', 'strong', 'b', 'em', 'i', 'u', 'del', 's', 'ins', 'mark', 'sub', 'sup', 'small'],
    ...['code', 'pre', 'kbd', 'blockquote', 'ul', 'ol', 'li', 'a', 'span'],
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td'],
  ],
  ALLOWED_ATTR: ['href', 'title', 'align', 'start', 'lang', 'dir'],
};

/** Sanitised nodes of untrusted HTML, parsed in an inert document through the `vaani` policy. */
const sanitised = (html: string): DocumentFragment =>
  DOMPurify.sanitize(html, { ...ANSWER, TRUSTED_TYPES_POLICY: vaaniPolicy() ?? undefined, RETURN_DOM_FRAGMENT: true });

/**
 * A model's Markdown as sanitised DOM nodes: raw HTML in the answer never runs, nothing in it loads
 * from the network by itself, and no HTML string reaches the page.
 */
export function renderMarkdown(markdown: string): DocumentFragment {
  return sanitised(marked.parse(markdown, { async: false, gfm: true, breaks: true }));
}

/** The words of a Markdown fragment, for speech: no `**`, `#`, link targets or tags. */
export function speakable(markdown: string): string {
  return (sanitised(marked.parseInline(markdown, { async: false })).textContent ?? '').replace(/\s+/g, ' ').trim();
}
