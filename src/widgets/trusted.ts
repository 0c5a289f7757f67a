import type { Config } from 'dompurify';
import { vaaniPolicy as realmPolicy } from '../common/trusted-types';

type Policy = NonNullable<Config['TRUSTED_TYPES_POLICY']>;

/**
 * The page's one Trusted Types policy, `vaani` (src/common/trusted-types.ts: the engines start their
 * workers through it too); null where the browser has no Trusted Types. In the widgets its
 * `createHTML` is reached only by `setMarkup` (the widgets' own constant markup) and by DOMPurify
 * parsing an answer into an inert document. Answers reach the page as sanitised nodes, never as HTML.
 */
export const vaaniPolicy = (): Policy | null => realmPolicy() as Policy | null;

/** Sets a widget's own constant markup (never text from a model or a user) through the `vaani` policy. */
export function setMarkup(target: Element | ShadowRoot, markup: string): void {
  target.innerHTML = (realmPolicy()?.createHTML(markup) ?? markup) as string;
}
