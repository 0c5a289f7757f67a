/** Plain-fetch calls to the routes that the openai SDK has no method for (they go through `ai.install()`). */

interface ErrorBody {
  error?: { message?: string; code?: string };
}

/** Throws the route's OpenAI-style error message when the response is not ok. */
export async function ensureOk(response: Response): Promise<Response> {
  if (response.ok) return response;
  const body = (await response.json().catch(() => ({}))) as ErrorBody;
  throw new Error(
    `${response.status}: ${body.error?.message ?? response.statusText}${body.error?.code ? ` (${body.error.code})` : ''}`,
  );
}

export async function getJson<T>(url: string, key: string): Promise<T> {
  const response = await ensureOk(await fetch(url, { headers: { authorization: `Bearer ${key}` } }));
  return (await response.json()) as T;
}

/** POSTs a multipart form and returns the audio it answers with. */
export async function postForm(url: string, key: string, form: FormData, signal?: AbortSignal): Promise<Blob> {
  const response = await ensureOk(
    await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${key}` }, body: form, signal }),
  );
  return response.blob();
}

export interface VoiceInfo {
  id: string;
  name: string;
  language: string;
  languageCode: string;
  gender: string;
  /** A neural voice's weights: the model id its files are cached under. */
  weights?: string;
  downloadBytes?: number;
  /** SPDX id of the voice's licence; `commercial`: whether it allows commercial use. */
  license?: string;
  commercial?: boolean;
  /** The credit line the licence asks for (CC-BY). */
  attribution?: string;
}

export interface VoiceList {
  voices: VoiceInfo[];
  models: { id: string; kind: string }[];
}

export interface ModelInfo {
  id: string;
  product: string;
  /** The local engine's context once it has loaded, else the catalogue's (the remote service's). */
  context_window: number | null;
  context_window_remote: number | null;
  price: { currency: string; amount: number | null; per: string };
  status: 'available' | 'coming_soon';
  runs_on: { local: string[]; remote: boolean; builtin?: string };
  routing: string | { prefer: string[] };
  /** The browser web API that answers this id (the browser's own model). */
  builtin?: string;
}
