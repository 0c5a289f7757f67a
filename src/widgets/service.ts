import { EventSourceParserStream } from 'eventsource-parser/stream';
import { APIError, VaaniError, type Vaani } from '../index';
import { authorization } from './config';

/**
 * A widget's own failure (`mic_denied`, `voice_not_found`, …); a route's failure is an `APIError`
 * (its status and code: `model_unavailable`, …). Both are `VaaniError`s.
 */
export class WidgetError extends VaaniError {
  constructor(
    message: string,
    readonly code: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'WidgetError';
  }
}

/** Codes that mean the model's files could not be had (shown as "model files not found"). */
export const MISSING_MODEL = new Set([
  'model_unavailable',
  'model_load_failed',
  'file_not_found',
  'tts_plugin_missing',
  'tts_plugin_failed',
]);

async function post(ai: Vaani, path: string, body: BodyInit, signal?: AbortSignal, json = false): Promise<Response> {
  const headers: Record<string, string> = {
    ...authorization(),
    ...(json ? { 'content-type': 'application/json' } : {}),
  };
  const response = await ai.fetch(`${ai.baseURL}${path}`, { method: 'POST', headers, body, signal });
  if (!response.ok) throw await APIError.fromResponse(response);
  return response;
}

export interface TranscribeOptions {
  model: string;
  language?: string;
  translate?: boolean;
  prompt?: string;
  signal?: AbortSignal;
}

/** The text of a recording, through /audio/transcriptions (or /audio/translations: English). */
export async function transcribe(ai: Vaani, file: File, options: TranscribeOptions): Promise<string> {
  const form = new FormData();
  form.set('file', file);
  form.set('model', options.model);
  if (options.language) form.set('language', options.language);
  if (options.prompt) form.set('prompt', options.prompt);
  const path = options.translate ? '/audio/translations' : '/audio/transcriptions';
  const { text } = (await (await post(ai, path, form, options.signal)).json()) as { text: string };
  return text.trim();
}

export interface SpeechOptions {
  model: string;
  voice: string;
  speed?: number;
  stability?: number;
  style?: number;
  signal?: AbortSignal;
}

/** WAV bytes of `input`, through /audio/speech. */
export async function synthesize(ai: Vaani, input: string, options: SpeechOptions): Promise<ArrayBuffer> {
  const { signal, ...fields } = options;
  const body = JSON.stringify({ ...fields, input, response_format: 'wav' });
  return (await post(ai, '/audio/speech', body, signal, true)).arrayBuffer();
}

export interface Voice {
  id: string;
  languageCode: string;
  commercial?: boolean;
  attribution?: string;
}

interface VoiceList {
  voices: Voice[];
  licences?: 'commercial' | 'any';
}

const voiceLists = new WeakMap<Vaani, Promise<VoiceList>>();

/** GET /voices, once per instance (an empty list when it fails). */
function voiceList(ai: Vaani): Promise<VoiceList> {
  let list = voiceLists.get(ai);
  if (!list) {
    list = ai
      .fetch(`${ai.baseURL}/voices`, { headers: authorization() })
      .then(async (response) => (response.ok ? ((await response.json()) as VoiceList) : { voices: [] }));
    voiceLists.set(ai, list);
  }
  return list;
}

/** GET /voices' voices Vaani may pick unnamed: under `licences: 'commercial'` (the default) only commercial ones. */
async function pickable(ai: Vaani): Promise<Voice[]> {
  const body = await voiceList(ai);
  return body.licences === 'any' ? body.voices : body.voices.filter((voice) => voice.commercial !== false);
}

/** The credit line a voice's licence asks for (CC-BY), from GET /voices; undefined when none. */
export const voiceCredit = async (ai: Vaani, id: string): Promise<string | undefined> =>
  (await voiceList(ai)).voices.find((voice) => voice.id === id)?.attribution;

/**
 * The voice for a language tag: the first voice of that locale, else of that language, else the
 * first of all — among those `createVaani({ licences })` lets Vaani pick.
 */
export async function voiceFor(ai: Vaani, lang: string): Promise<string> {
  const voices = await pickable(ai);
  const tag = lang.toLowerCase();
  const primary = tag.split('-')[0];
  const pick =
    voices.find((v) => v.languageCode.toLowerCase() === tag) ??
    voices.find((v) => v.languageCode.toLowerCase().split('-')[0] === primary) ??
    voices[0];
  if (!pick) throw new WidgetError('No voice is available.', 'voice_not_found');
  return pick.id;
}

export interface ChatDelta {
  /** Text to append to the answer. */
  content?: string;
  completionTokens?: number;
}

export interface ChatStream {
  /** `x-vaani-backend` of a local answer (`wasm`, `webgpu`), `remote` otherwise. */
  backend: string;
  deltas: AsyncGenerator<ChatDelta>;
}

/** Streams a chat completion (SSE) through /chat/completions, with usage at the end. */
export async function streamChat(ai: Vaani, body: Record<string, unknown>, signal: AbortSignal): Promise<ChatStream> {
  const request = JSON.stringify({ ...body, stream: true, stream_options: { include_usage: true } });
  const response = await post(ai, '/chat/completions', request, signal, true);
  return { backend: response.headers.get('x-vaani-backend') ?? 'remote', deltas: events(response.body!) };
}

async function* events(body: ReadableStream<Uint8Array>): AsyncGenerator<ChatDelta> {
  const reader = body
    .pipeThrough(new TextDecoderStream() as ReadableWritablePair<string, Uint8Array>)
    .pipeThrough(new EventSourceParserStream())
    .getReader();
  try {
    for (let next = await reader.read(); !next.done && next.value.data !== '[DONE]'; next = await reader.read()) {
      const chunk = JSON.parse(next.value.data) as {
        error?: { message: string; code: string; type?: string };
        choices?: { delta?: { content?: string | null } }[];
        usage?: { completion_tokens: number };
      };
      if (chunk.error) throw APIError.fromEvent({ error: chunk.error });
      const content = chunk.choices?.[0]?.delta?.content;
      if (content) yield { content };
      if (chunk.usage) yield { completionTokens: chunk.usage.completion_tokens };
    }
  } finally {
    void reader.cancel().catch(() => undefined);
  }
}
