/** The parts of a Trusted Types policy Vaani uses (DOMPurify's `TRUSTED_TYPES_POLICY` takes it too). */
export interface VaaniPolicy {
  createHTML(html: string): TrustedHTML;
  createScriptURL(url: string): TrustedScriptURL;
}
type TrustedHTML = { readonly __trustedHTML: unique symbol };
type TrustedScriptURL = { readonly __trustedScriptURL: unique symbol };
type Factory = { createPolicy(name: string, rules: object): VaaniPolicy };

let policy: VaaniPolicy | null | undefined;
/** Why the `vaani` policy could not be created (the page's `trusted-types` directive lacks it). */
let refused: Error | undefined;
/** True only while Vaani itself starts a worker: the policy makes script URLs then, never else. */
let starting = false;

/** The absolute URL of a same-origin http(s) script, else undefined. */
function sameOrigin(url: string): string | undefined {
  const { location } = globalThis as unknown as { location: Location };
  const parsed = new URL(url, location.href);
  return parsed.origin === location.origin && /^https?:$/.test(parsed.protocol) ? parsed.href : undefined;
}

/**
 * A worker script of Vaani's own: same origin, http(s), asked for while Vaani starts a worker.
 * Anything else (another origin, `blob:`, `data:`, a string from DOMPurify or a page) is refused.
 */
function ownScriptURL(url: string): string {
  const href = starting ? sameOrigin(url) : undefined;
  if (!href)
    throw new TypeError(`Vaani's Trusted Types policy makes script URLs only for its own workers, not ${url}.`);
  return href;
}

/**
 * This realm's one Trusted Types policy, `vaani` (a page whose CSP has `trusted-types` must list it);
 * null where the browser has no Trusted Types or the page's CSP refused the name. Its `createHTML`
 * is reached only by the widgets' own constant markup and by DOMPurify parsing an answer into an
 * inert document; its `createScriptURL` only by `startTrusted`, for same-origin scripts.
 */
export function vaaniPolicy(): VaaniPolicy | null {
  if (policy !== undefined) return policy;
  const factory = (globalThis as { trustedTypes?: Factory }).trustedTypes;
  try {
    policy =
      factory?.createPolicy('vaani', { createHTML: (html: string) => html, createScriptURL: ownScriptURL }) ?? null;
  } catch (error) {
    refused = error as Error;
    policy = null;
  }
  return policy;
}

type Constructor = new (url: string | URL, options?: object) => object;
const SINKS = ['Worker', 'SharedWorker'] as const;

/**
 * `native` (Worker, SharedWorker) taking a same-origin URL through `sink`; any other URL goes to
 * `native` as given, so the browser decides as it would without Vaani (a page that does not require
 * Trusted Types still starts a `blob:` worker). `instanceof` still holds.
 */
function trusting(native: Constructor, sink: VaaniPolicy): Constructor {
  function Trusted(url: string | URL, options?: object) {
    if (!sameOrigin(String(url))) return new native(url, options);
    starting = true;
    try {
      return new native(sink.createScriptURL(String(url)) as unknown as string, options);
    } finally {
      starting = false;
    }
  }
  Trusted.prototype = native.prototype;
  return Trusted as unknown as Constructor;
}

/**
 * Runs `start`, which starts a worker as bundlers expect to find it,
 * `new Worker(new URL('./x.worker.ts', import.meta.url), …)`, with `Worker` and `SharedWorker`
 * taking that URL through the `vaani` policy: a page that requires Trusted Types for scripts
 * accepts it. Without Trusted Types it is `start()`. The globals are restored before it returns.
 */
export function startTrusted<T>(start: () => T): T {
  const sink = vaaniPolicy();
  if (!sink) {
    try {
      return start();
    } catch (error) {
      if (!refused) throw error;
      throw new Error(`${(error as Error).message} Vaani's Trusted Types policy was refused: ${refused.message}`, {
        cause: error,
      });
    }
  }
  const scope = globalThis as unknown as Record<string, Constructor | undefined>;
  const natives = SINKS.map((name) => scope[name]);
  SINKS.forEach((name, i) => natives[i] && (scope[name] = trusting(natives[i], sink)));
  try {
    return start();
  } finally {
    SINKS.forEach((name, i) => natives[i] && (scope[name] = natives[i]));
  }
}

let wrapped = false;

/**
 * In a worker of Vaani's own, where nothing else runs: libraries that start workers of their own
 * (onnxruntime-web's WASM threads, from its own same-origin file) do so through the `vaani` policy
 * for the worker's life. A `blob:` or cross-origin worker is still refused.
 */
export function trustWorkerStarts(): void {
  if (wrapped || !('WorkerGlobalScope' in globalThis)) return;
  wrapped = true;
  const sink = vaaniPolicy();
  const scope = globalThis as unknown as { Worker?: Constructor };
  if (sink && scope.Worker) scope.Worker = trusting(scope.Worker, sink);
}
