/**
 * The Service Worker mode (`vaani/sw`): the worker answers `/v1` fetches of its scope by handing
 * each one to a page that serves (`serveServiceWorker(ai)`), which answers it with its own `ai.fetch`.
 */

/** Page → worker, posted to the registration's active worker. */
export type PageToWorker =
  /** This page answers requests under `base` (its `ai.baseURL`). Posted again after every `who`. */
  | { vaani: 'serve'; base: string }
  | { vaani: 'withdraw' }
  /** Opt-in offline copy: URLs the page has already loaded, for the worker to keep. */
  | { vaani: 'precache'; urls: string[] };

/** Worker → page (a window client). A `request` carries a MessagePort for its replies. */
export type WorkerToPage =
  /** The worker (fresh after being stopped) asks which pages serve. */
  | { vaani: 'who' }
  | { vaani: 'request'; url: string; method: string; headers: [string, string][]; body: ArrayBuffer | null };

/** The page's replies on a request's port. */
export type PageReply =
  /** Taken: `lock` is a Web Lock the page holds while it lives (it frees when the tab closes). */
  | { type: 'accepted'; lock: string }
  | { type: 'response'; status: number; statusText: string; headers: [string, string][]; body: ReadableStream | null }
  | { type: 'error'; message: string };

/** The worker's messages on a request's port. */
export type WorkerReply = { type: 'abort' };

/** Numeric fields of `POST /audio/speech`: the GET form's query values for them become numbers. */
const SPEECH_NUMBERS = new Set(['speed', 'stability', 'style']);

/**
 * The GET form of `/audio/speech` (for `<audio src>`): each query parameter is a field of the POST
 * body, the numeric ones as numbers; a value that is not a number stays a string (the route says why).
 */
export function speechBodyFromQuery(params: URLSearchParams): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [name, value] of params) {
    const number = Number(value);
    body[name] = SPEECH_NUMBERS.has(name) && value.trim() !== '' && Number.isFinite(number) ? number : value;
  }
  return body;
}
