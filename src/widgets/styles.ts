/**
 * Theming: CSS custom properties on the element or any ancestor (`--vaani-accent`, `--vaani-surface`,
 * `--vaani-text`, `--vaani-muted`, `--vaani-border`, `--vaani-danger`, `--vaani-radius`,
 * `--vaani-font`, `--vaani-highlight`), `::part(...)` for any inner piece, and `theme="dark|light"`
 * (default: the page's own `color-scheme`, so a page that declares `light dark` gets dark widgets in dark mode).
 */
export const BASE_CSS = `
:host {
  --_accent: var(--vaani-accent, light-dark(#3730a3, #a5b4fc));
  --_on-accent: var(--vaani-on-accent, light-dark(#ffffff, #1e1b4b));
  --_surface: var(--vaani-surface, light-dark(#ffffff, #1c1c22));
  --_text: var(--vaani-text, light-dark(#1c1c22, #ececf1));
  --_muted: var(--vaani-muted, light-dark(#52525b, #b4b4bf));
  --_border: var(--vaani-border, light-dark(#a1a1aa, #52525b));
  --_danger: var(--vaani-danger, light-dark(#b91c1c, #fca5a5));
  --_radius: var(--vaani-radius, 0.5rem);
  font: var(--vaani-font, inherit);
  color: var(--_text);
  box-sizing: border-box;
  max-inline-size: 100%;
}
:host([theme='dark']) { color-scheme: dark; }
:host([theme='light']) { color-scheme: light; }
:host([hidden]) { display: none; }
*, *::before, *::after { box-sizing: inherit; }
button {
  font: inherit;
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: 0.35em;
  min-block-size: 2.5rem;
  min-inline-size: 2.5rem;
  padding: 0 0.75em;
  border: 1px solid var(--_accent);
  border-radius: var(--_radius);
  background: var(--_accent);
  color: var(--_on-accent);
  cursor: pointer;
}
button.secondary { background: transparent; color: var(--_accent); }
button:disabled { opacity: 0.55; cursor: not-allowed; }
button:focus-visible, textarea:focus-visible, [tabindex]:focus-visible {
  outline: 3px solid var(--_accent);
  outline-offset: 2px;
}
button[aria-pressed='true'] { background: var(--_danger); border-color: var(--_danger); color: var(--_surface); }
svg { inline-size: 1.25em; block-size: 1.25em; flex: none; fill: currentColor; }
.status {
  color: var(--_muted);
  font-size: 0.875em;
  min-block-size: 1.5em;
  line-height: 1.5em;
  white-space: nowrap;
  overflow: hidden;
  text-overflow: ellipsis;
  min-inline-size: 0;
}
:host([state='error']) .status { color: var(--_danger); }
.consent {
  margin-block: 0.5rem;
  padding: 0.75rem;
  border: 1px solid var(--_border);
  border-radius: var(--_radius);
  background: var(--_surface);
  color: var(--_text);
}
.consent p { margin: 0 0 0.5rem; }
.consent p:empty { display: none; }
.consent-actions { display: flex; flex-wrap: wrap; gap: 0.5rem; }
.visually-hidden {
  position: absolute;
  inline-size: 1px;
  block-size: 1px;
  overflow: hidden;
  clip-path: inset(50%);
  white-space: nowrap;
}
`;

const sheets = new Map<string, CSSStyleSheet>();

/** One constructed stylesheet per CSS text, shared by every element that uses it. */
export function sheet(css: string): CSSStyleSheet {
  let found = sheets.get(css);
  if (!found) {
    found = new CSSStyleSheet();
    found.replaceSync(css);
    sheets.set(css, found);
  }
  return found;
}

export const ICONS = {
  mic: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12 14a3 3 0 0 0 3-3V5a3 3 0 0 0-6 0v6a3 3 0 0 0 3 3Zm5-3a5 5 0 0 1-10 0H5a7 7 0 0 0 6 6.92V21h2v-3.08A7 7 0 0 0 19 11Z"/></svg>',
  stop: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 6h12v12H6z"/></svg>',
  play: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M8 5v14l11-7z"/></svg>',
  pause: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 5h4v14H6zm8 0h4v14h-4z"/></svg>',
  send: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M3 20.5 21 12 3 3.5v6.6l12 1.9-12 1.9z"/></svg>',
};
