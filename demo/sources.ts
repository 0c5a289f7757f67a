import { SHARED_FILES, type VaaniOptions } from './vaani';

/** The hub the library's default model sources point at. */
const HUB_PROBE = 'https://huggingface.co/onnx-community/Qwen3-0.6B-ONNX/resolve/main/config.json';

export interface FileSource {
  mode: 'hub' | 'folder';
  /** The models whose files are neither in the folder nor on the hub here (each points at the folder anyway). */
  missing: string[];
  /** The models folder on the server's disk, as `vaani pull --to` takes it (public/models unless set). */
  folder: string;
  /** Why this source was chosen, shown on screen. */
  reason: string;
  models: NonNullable<VaaniOptions['models']>;
}

export async function hubReachable(timeoutMs = 4000): Promise<boolean> {
  try {
    const response = await fetch(HUB_PROBE, { method: 'HEAD', signal: AbortSignal.timeout(timeoutMs) });
    return response.ok;
  } catch {
    return false;
  }
}

interface FolderIndex {
  /** The folder on the server's disk (the demo server says; another server may not). */
  folder?: string;
  models: Record<string, { name: string; size: number }[]>;
}

/** The folder `vaani pull` writes to by default, which the demo serves unless told otherwise. */
const DEFAULT_FOLDER = 'public/models';

/** The models with engines in this build (`npx vaani pull <id>` fetches each into the folder). */
const LOCAL_MODELS = [
  'chat-v2',
  'chat-v2-pro',
  'code-v1',
  'code-v1-base',
  'agent-v1',
  'speech-stt-v1',
  'embed-v1',
  'image-v1',
  'kokoro-82m',
  'mms-tts-hin',
];

/** IndicConformer's folder beside speech-stt-v1's (Whisper) one. */
const INDIC_FOLDER = 'speech-stt-v1.indic';

/** How a model's files get into the folder. */
export const fetchHint = (source: FileSource, id: string) => `npx vaani pull ${id} --to ${source.folder}`;

async function readIndex(folder: string): Promise<{ base: URL; index: FolderIndex }> {
  const base = new URL(folder.replace(/\/?$/, '/'), location.href);
  const response = await fetch(new URL('index.json', base)).catch(() => undefined);
  const index = response?.ok ? ((await response.json()) as FolderIndex) : { models: {} };
  return { base, index };
}

/**
 * Each sub-folder of the local folder becomes `models[id] = { baseURL, files }`; speech-stt-v1.indic/
 * is speech-stt-v1's IndicConformer (without it, a local folder means Whisper only). Every other
 * local model points at the folder too, so using it names the folder, the missing files and the
 * `vaani pull` line instead of reaching for the hub; agent-v1 without a folder reads chat-v2's.
 */
export function folderModels(base: URL, index: FolderIndex): FileSource['models'] {
  const source = (id: string) => ({ baseURL: new URL(`${id}/`, base).href, files: index.models[id] });
  const models: FileSource['models'] = Object.fromEntries(
    Object.keys(index.models)
      .filter((id) => id !== INDIC_FOLDER)
      .map((id) => [id, source(id)]),
  );
  // An id that reads another's files (agent-v1 → chat-v2) gets no folder of its own unless it has one.
  for (const id of LOCAL_MODELS) if (!SHARED_FILES[id]) models[id] ??= { baseURL: new URL(`${id}/`, base).href };
  if (models['speech-stt-v1'])
    models['speech-stt-v1'] = {
      ...models['speech-stt-v1'],
      indic: index.models[INDIC_FOLDER] ? { ...source(INDIC_FOLDER), dtype: 'fp32' } : false,
    };
  return models;
}

/**
 * The optional (L)GPL plug-ins the site serves (the demo server lists them at /plugins/index.json):
 * `models[key] = { baseURL }`, e.g. eSpeak-NG for the offline voices.
 */
export async function servedPlugins(): Promise<FileSource['models']> {
  const response = await fetch('/plugins/index.json').catch(() => undefined);
  if (!response?.ok || !response.headers.get('content-type')?.includes('json')) return {};
  const plugins = (await response.json()) as Record<string, string>;
  return Object.fromEntries(Object.entries(plugins).map(([key, baseURL]) => [key, { baseURL }]));
}

/** Decides where model files come from and says why. */
export async function chooseSource(mode: 'auto' | 'hub' | 'folder', folder: string): Promise<FileSource> {
  const hub = mode === 'hub' || (mode === 'auto' && (await hubReachable()));
  const { base, index } = await readIndex(folder);
  const on = { folder: index.folder ?? DEFAULT_FOLDER };
  if (hub) {
    const reason = `Model files come from the model hub${mode === 'hub' ? ' (Settings)' : ''}.`;
    return { mode: 'hub', reason, models: {}, missing: [], ...on };
  }
  const models = folderModels(base, index);
  const ids = Object.keys(models).filter((id) => models[id]?.files);
  const why = mode === 'auto' ? 'No model hub is reachable, so model' : 'Model';
  const what =
    ids.length > 0
      ? `models ${ids.join(', ')}`
      : `no models found there (put one sub-folder per model id, e.g. chat-v2/: npx vaani pull chat-v2 --to ${on.folder})`;
  // An id that reads another's files (agent-v1 → chat-v2) is missing only when both folders are.
  const missing = LOCAL_MODELS.filter((id) => !index.models[id] && !index.models[SHARED_FILES[id] ?? id]);
  return {
    mode: 'folder',
    reason: `${why} files come from the local folder ${folder} — ${what}.`,
    models,
    missing,
    ...on,
  };
}
