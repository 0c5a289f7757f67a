import { WASM_DTYPES } from '../common/backends/plan';
import { DEFAULT_SOURCES, DEFAULT_HOST, SHARED_FILES } from '../catalogue/sources';
import { encoderFiles } from '../common/layouts/embeddings';
import { llmFiles } from '../common/layouts/chat';
import { whisperFiles } from '../common/layouts/whisper';
import type { FileLoader, FileSpec } from '../protocol/weights';
import { VOICES } from '../catalogue/voices';
import { modelFile } from '../common/layouts/voices';
import { listRepo, type HubFile, type HubRepo } from './hub';

/** The engine families `vaani pull` knows, each with the browser engine's own file list. */
export type Family = 'chat' | 'transcription' | 'embeddings' | 'kokoro' | 'vits';

/** A model to pull: the folder it goes to (also the key of `createVaani({ models })`), its repo and family. */
export interface Target {
  id: string;
  repo: HubRepo;
  family: Family;
}

/** One file to fetch, with what the hub says of it. */
export interface PlannedFile extends HubFile {
  optional?: boolean;
}

export interface Plan extends Target {
  /** The key of `createVaani({ models })` the folder serves: the id, or for a bare repo its family's default id. */
  key: string;
  dtypes: string[];
  files: PlannedFile[];
}

const CATALOGUE_FAMILY: Record<string, Family> = {
  'chat-v2': 'chat',
  'chat-v2-pro': 'chat',
  'code-v1': 'chat',
  'code-v1-base': 'chat',
  'agent-v1': 'chat',
  'speech-stt-v1': 'transcription',
  'embed-v1': 'embeddings',
};

const FAMILY_KEY: Record<Family, string> = {
  chat: 'chat-v2',
  transcription: 'speech-stt-v1',
  embeddings: 'embed-v1',
  kokoro: 'kokoro-82m',
  vits: 'mms-tts-hin',
};

/** Neural voices' weights, by the key `createVaani({ models })` takes for them (e.g. 'kokoro-82m'). */
const voiceWeights = () => {
  const found = new Map<string, { repo: string; family: Family; files: Set<string> }>();
  for (const voice of VOICES) {
    const spec = voice.spec;
    if (spec.engine === 'espeak') continue;
    const entry = found.get(spec.download.weights) ?? {
      repo: spec.download.repo,
      family: spec.engine,
      files: new Set(),
    };
    for (const file of spec.download.files) entry.files.add(file.path);
    found.set(spec.download.weights, entry);
  }
  return found;
};

/** Every id `vaani pull` takes without a repo: catalogue models, then neural voices' weights. */
export const PULLABLE: readonly string[] = [...Object.keys(CATALOGUE_FAMILY), ...voiceWeights().keys()];

/** The id whose files a bare id reads (agent-v1 → chat-v2: one folder serves both), else undefined. */
export const sharedWith = (arg: string): string | undefined => (arg.includes('=') ? undefined : SHARED_FILES[arg]);

/**
 * `chat-v2`, `kokoro-82m`, `owner/repo` (family guessed from its files) or `chat-v2=owner/repo`
 * (that repo for that id) → what to pull. An id that reads another's files pulls that id
 * (`agent-v1` → chat-v2/); `agent-v1=owner/repo` gives it a folder of its own.
 */
export function parseTarget(arg: string, host = DEFAULT_HOST, revision?: string): Target {
  const shared = sharedWith(arg);
  if (shared) return parseTarget(shared, host, revision);
  const [id, repoArg] = arg.includes('=') ? (arg.split('=', 2) as [string, string]) : [arg, undefined];
  const voice = voiceWeights().get(id);
  const known = CATALOGUE_FAMILY[id] ?? voice?.family;
  if (!known && !id.includes('/'))
    throw new Error(
      `Unknown model '${id}': use one of ${PULLABLE.join(', ')}, a hub repo (owner/name) or id=owner/name.`,
    );
  const repo = repoArg ?? (voice ? voice.repo : DEFAULT_SOURCES[id]?.repo) ?? id;
  const folder = known ? id : id.split('/').pop()!;
  return {
    id: folder,
    repo: { host, repo, revision: revision ?? DEFAULT_SOURCES[id]?.revision ?? 'main' },
    family: known ?? 'chat',
  };
}

/** A FileLoader that answers `has` from a repo listing, so the engines' own file lists run unchanged. */
const listingLoader = (names: Set<string>): FileLoader => ({
  has: async (file) => names.has(file),
  load: async (file) => {
    throw new Error(`${file}: the file list does not read files.`);
  },
});

const guessFamily = (names: Set<string>): Family | undefined => {
  const all = [...names];
  if (all.some((name) => /^onnx\/encoder_model/.test(name))) return 'transcription';
  if (all.some((name) => /^voices\/.*\.bin$/.test(name))) return 'kokoro';
  if (names.has('vocab.json') && !names.has('tokenizer.json')) return 'vits';
  if (all.some((name) => /(^|\/)model[\w]*\.onnx$/.test(name))) return 'chat';
  return undefined;
};

/** The files a family's engine reads for one dtype, from its own list. */
async function filesFor(family: Family, names: Set<string>, dtype: string, target: Target): Promise<FileSpec[]> {
  const loader = listingLoader(names);
  if (family === 'chat') return llmFiles(loader, [dtype]);
  if (family === 'transcription') return whisperFiles(loader, [dtype]);
  if (family === 'embeddings') return encoderFiles(loader, [dtype]);
  const voice = voiceWeights().get(target.id);
  const graph = modelFile(dtype);
  if (!names.has(graph)) throw new Error(`no ${graph}`);
  const listed = voice ? [...voice.files] : family === 'kokoro' ? [...names].filter((n) => /^voices\//.test(n)) : [];
  const extra = family === 'kokoro' ? ['tokenizer.json'] : ['vocab.json', 'tokenizer_config.json', 'config.json'];
  const rest = [...new Set([...listed, ...extra])].filter((name) => !/^onnx\//.test(name));
  return [...rest.map((name) => ({ name })), { name: graph }];
}

/**
 * Lists the repo and picks exactly the files the browser engine will request for each dtype
 * (default: the first the WASM backend would use), with their sizes and, for LFS files, SHA-256.
 */
export async function planPull(target: Target, dtypes: string[] = [], fetchImpl: typeof fetch = fetch): Promise<Plan> {
  const listing = await listRepo(target.repo, fetchImpl);
  const byName = new Map(listing.map((file) => [file.path, file]));
  const names = new Set(byName.keys());
  const family = CATALOGUE_FAMILY[target.id] || voiceWeights().has(target.id) ? target.family : guessFamily(names);
  if (!family) throw new Error(`${target.repo.repo} has no ONNX model this library runs (no model*.onnx files).`);
  const tryDtypes = dtypes.length ? dtypes : family === 'kokoro' || family === 'vits' ? ['q8'] : WASM_DTYPES;
  const chosen: string[] = [];
  const files = new Map<string, PlannedFile>();
  const failures: string[] = [];
  for (const dtype of tryDtypes) {
    let specs: FileSpec[];
    try {
      specs = await filesFor(family, names, dtype, target);
    } catch (error) {
      failures.push(`${dtype}: ${(error instanceof Error ? error.message : String(error)).replace(/\.$/, '')}`);
      continue;
    }
    const missing = specs.filter((spec) => !spec.optional && !names.has(spec.name)).map((spec) => spec.name);
    if (missing.length) {
      failures.push(`${dtype}: the repo lacks ${missing.join(', ')}`);
      continue;
    }
    chosen.push(dtype);
    for (const spec of specs) {
      const listed = byName.get(spec.name);
      if (listed) files.set(spec.name, { ...listed, optional: spec.optional });
    }
    if (!dtypes.length) break;
  }
  if (!chosen.length || (dtypes.length && chosen.length < dtypes.length))
    throw new Error(`${target.repo.repo}@${target.repo.revision} cannot be pulled: ${failures.join('; ')}.`);
  const known = CATALOGUE_FAMILY[target.id] || voiceWeights().has(target.id);
  return { ...target, key: known ? target.id : FAMILY_KEY[family], family, dtypes: chosen, files: [...files.values()] };
}
