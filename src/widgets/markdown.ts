import DOMPurify from 'dompurify';
import { marked } from 'marked';

/**
 * A model's Markdown as sanitised HTML: raw HTML in the answer never runs (DOMPurify's safe
 * profile), and nothing in it loads from the network by itself (no images, media or styles).
 */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown, { async: false, gfm: true, breaks: true });
  return DOMPurify.sanitize(html, {
    FORBID_TAGS: [
      'style',
      'img',
      'picture',
      'video',
      'audio',
      'source',
      'form',
      'input',
      'button',
      'textarea',
      'select',
    ],
  });
}

/** The words of a Markdown fragment, for speech: no `**`, `#`, link targets or tags. */
export function speakable(markdown: string): string {
  const html = DOMPurify.sanitize(marked.parseInline(markdown, { async: false }));
  const holder = document.createElement('template');
  holder.innerHTML = html;
  return (holder.content.textContent ?? '').replace(/\s+/g, ' ').trim();
}
