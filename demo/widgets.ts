import { use } from '../src/widgets/index';
import type { Service } from './service';
import { byId, el } from './ui';

/** The Widgets tab: every element live, with the exact HTML that makes it as a copy-paste snippet. */
export function mountWidgets(service: Service): void {
  service.addEventListener('change', () => use(service.ai, { apiKey: service.key }));
  for (const block of document.querySelectorAll<HTMLElement>('#widgets-gallery [data-snippet]')) {
    const html = block.innerHTML
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => line.replace(/^ {14}/, ''))
      .join('\n')
      // The elements are already upgraded: drop the state they show and write boolean attributes bare.
      .replace(/ state="[^"]*"/g, '')
      .replace(/=""/g, '');
    const copy = el('button', { type: 'button', textContent: 'Copy' });
    copy.addEventListener('click', () => void navigator.clipboard?.writeText(html));
    block.after(el('pre', { className: 'snippet', tabIndex: 0 }, el('code', { textContent: html })), copy);
  }
  const gallery = byId('widgets-gallery');
  const widgets = () => gallery.querySelectorAll('vaani-dictate, vaani-speak, vaani-chat, vaani-voice-assistant');
  byId<HTMLSelectElement>('widgets-theme').addEventListener('change', (event) => {
    const theme = (event.target as HTMLSelectElement).value;
    for (const widget of widgets()) {
      if (theme) widget.setAttribute('theme', theme);
      else widget.removeAttribute('theme');
    }
    gallery.dataset.theme = theme;
  });
  byId<HTMLSelectElement>('widgets-lang').addEventListener('change', (event) => {
    gallery.lang = (event.target as HTMLSelectElement).value;
    for (const widget of widgets()) widget.setAttribute('lang', gallery.lang);
  });
  const events = byId('widgets-events');
  for (const type of ['vaani-state', 'vaani-result', 'vaani-error'])
    gallery.addEventListener(type, (event) => {
      const detail = (event as CustomEvent).detail as Record<string, unknown>;
      const summary =
        type === 'vaani-state'
          ? String(detail.message)
          : JSON.stringify(detail, ['text', 'content', 'code', 'message', 'latency', 'heard']);
      events.textContent = `${(event.target as Element).localName} ${type}: ${summary}`;
    });
}
