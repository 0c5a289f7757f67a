import { createVaani, type Vaani } from '../index';
import { pageInstances } from '../page/instances';

export interface WidgetOptions {
  /** The Bearer key widgets send (any non-empty key for the in-page service; forwarded to a remote without its own key). */
  apiKey?: string;
}

let chosen: Vaani | undefined;
let fallback: Vaani | undefined;
let key = 'vaani-widgets';

/** Makes every widget on the page use `ai` (so models load once), unless an element has its own `vaani`. */
export function use(ai: Vaani, options: WidgetOptions = {}): void {
  chosen = ai;
  if (options.apiKey) key = options.apiKey;
}

/** The instance widgets use: the one given to `use`, else the first `createVaani` instance on the page, else one made here. */
export function sharedVaani(): Vaani {
  const first = pageInstances().values().next().value;
  return chosen ?? first ?? (fallback ??= createVaani());
}

export const authorization = () => ({ authorization: `Bearer ${key}` });
