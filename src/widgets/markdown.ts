import DOMPurify from 'dompurify';
import { marked } from 'marked';

/** A model's Markdown as sanitised HTML: raw HTML in the answer never runs (DOMPurify, default safe profile). */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true, breaks: true });
  return DOMPurify.sanitize(html, { FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'] });
}

/** The words of a Markdown fragment, for speech: no `**`, `#`, link targets or tags. */
export function speakable(markdown: string): string {
  const html = DOMPurify.sanitize(marked.parseInline(markdown, { async: false }));
  const holder = document.createElement('template');
  holder.innerHTML = html;
  return (holder.content.textContent ?? '').replace(/\s+/g, ' ').trim();
}
