/** Small DOM helpers shared by the tabs. */

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> & { dataset?: Record<string, string> } = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  const { dataset, ...rest } = props;
  Object.assign(node, rest);
  Object.assign(node.dataset, dataset ?? {});
  node.append(...children);
  return node;
}

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const node = document.getElementById(id);
  if (!node) throw new Error(`#${id} is missing from index.html`);
  return node as T;
}

/** A status line: what is happening now, or what went wrong. */
export function say(node: HTMLElement, text: string, kind: 'busy' | 'ok' | 'error' | 'info' = 'info'): void {
  node.textContent = text;
  node.dataset.kind = kind;
}

export function formatBytes(bytes: number | undefined): string {
  if (bytes === undefined) return '?';
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

/** The message of an OpenAI-style error, a fetch failure or anything else thrown. */
export function describeError(error: unknown): string {
  if (error instanceof DOMException && error.name === 'AbortError') return 'Stopped.';
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Fills a <select> with options, keeping the current choice when it is still offered. */
export function fillSelect(select: HTMLSelectElement, options: { value: string; label: string }[]): void {
  const current = select.value;
  select.replaceChildren(...options.map(({ value, label }) => el('option', { value, textContent: label })));
  if (options.some((option) => option.value === current)) select.value = current;
}
