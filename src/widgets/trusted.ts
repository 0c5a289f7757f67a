import type { Config } from 'dompurify';

type Policy = NonNullable<Config['TRUSTED_TYPES_POLICY']>;
type TrustedTypes = { createPolicy(name: string, rules: object): Policy };

let policy: Policy | null | undefined;

/**
 * The widgets' one Trusted Types policy, `vaani` (a page whose CSP has `trusted-types` lists it);
 * null where the browser has no Trusted Types. It stays inside the widgets: its `createHTML` is
 * reached only by `setMarkup` (the widgets' own constant markup) and by DOMPurify parsing an answer
 * into an inert document. Answers reach the page as sanitised nodes, never as HTML; it makes no
 * script URLs.
 */
export function vaaniPolicy(): Policy | null {
  policy ??=
    (globalThis as { trustedTypes?: TrustedTypes }).trustedTypes?.createPolicy('vaani', {
      createHTML: (html: string) => html,
      createScriptURL: () => {
        throw new TypeError('Vaani widgets create no script URLs.');
      },
    }) ?? null;
  return policy;
}

/** Sets a widget's own constant markup (never text from a model or a user) through the `vaani` policy. */
export function setMarkup(target: Element | ShadowRoot, markup: string): void {
  target.innerHTML = (vaaniPolicy()?.createHTML(markup) ?? markup) as string;
}
