import { WASM_DTYPES } from '../common/backends/plan';
import { DEFAULT_HOST, SHARED_FILES } from '../catalogue/sources';
import { defaultModel, layoutOf, MODEL_TABLE, sourceOf, type Layout } from '../catalogue/families';
import { encoderFiles } from '../common/layouts/embeddings';
import { diffusionFiles } from '../common/layouts/diffusion';
import { llmFiles } from '../common/layouts/chat';
import { whisperFiles } from '../common/layouts/whisper';
import type { FileLoader, FileSpec } from '../protocol/weights';
import { VOICES } from '../catalogue/voices';
import { modelFile } from '../common/layouts/voices';
import { listRepo, type HubFile, type HubRepo } from './hub';

/** A model to pull: the folder it goes to (also the key of `createVaani({ models })`), its repo and file layout. */
export interface Target {
  id: string;
  repo: HubRepo;
  layout: Layout;
}

/** One file to fetch, with what the hub says of it. */
export interface PlannedFile extends HubFile {
  optional?: boolean;
}

export interface Plan extends Target {
  /** The key of `createVaani({ models })` the folder serves: the id, or for a bare repo its layout's default id. */
  key: string;
  dtypes: string[];
  files: PlannedFile[];
}

/** Neural voices' weights, by the key `createVaani({ models })` takes for them (e.g. 'kokoro-82m'). */
const voiceWeights = () => {
  const found = new Map<string, { repo: string; revision: string; layout: Layout; files: Set<string> }>();
  for (const voice of VOICES) {
    const spec = voice.spec;
    if (spec.engine === 'espeak') continue;
    const entry = found.get(spec.download.weights) ?? {
      repo: spec.download.repo,
      revision: spec.download.revision,
      layout: spec.engine,
      files: new Set(),
    };
    for (const file of spec.download.files) entry.files.add(file.path);
    found.set(spec.download.weights, entry);
  }
  return found;
};

/** The key a bare repo of a layout serves: the table's `pull:<layout>` default, else the first voice weights of it. */
/** Layouts only neural voices have (no table model and no `pull:<layout>` default). */
const VOICE_LAYOUTS: readonly Layout[] = ['kokoro', 'vits', 'piper', 'sherpa-vits'];

const layoutKey = (layout: Layout) =>
  VOICE_LAYOUTS.includes(layout)
    ? [...voiceWeights()].find(([, weights]) => weights.layout === layout)![0]
    : defaultModel(`pull:${layout}`);

/** Table ids with a file layout: each layout's default first, the others in table order. */
const tableIds = () => {
  const ids = Object.keys(MODEL_TABLE).filter((id) => layoutOf(id));
  const layouts = [...new Set(ids.map((id) => layoutOf(id)!))];
  return layouts.flatMap((layout) => {
    const own = ids.filter((id) => layoutOf(id) === layout);
    const first = layoutKey(layout);
    return [first, ...own.filter((id) => id !== first)];
  });
};

/** Every id `vaani pull` takes without a repo: the table's models, then neural voices' weights. */
export const PULLABLE: readonly string[] = [...tableIds(), ...voiceWeights().keys()];

/** The id whose files a bare id reads (agent-v1 → chat-v2: one folder serves both), else undefined. */
export const sharedWith = (arg: string): string | undefined => (arg.includes('=') ? undefined : SHARED_FILES[arg]);

/**
 * `chat-v2`, `kokoro-82m`, `owner/repo` (layout guessed from its files) or `chat-v2=owner/repo`
 * (that repo for that id) → what to pull. An id that reads another's files pulls that id
 * (`agent-v1` → chat-v2/); `agent-v1=owner/repo` gives it a folder of its own.
 */
export function parseTarget(arg: string, host = DEFAULT_HOST, revision?: string): Target {
  const shared = sharedWith(arg);
  if (shared) return parseTarget(shared, host, revision);
  const [id, repoArg] = arg.includes('=') ? (arg.split('=', 2) as [string, string]) : [arg, undefined];
  const voice = voiceWeights().get(id);
  const known = layoutOf(id) ?? voice?.layout;
  if (!known && !id.includes('/'))
    throw new Error(
      `Unknown model '${id}': use one of ${PULLABLE.join(', ')}, a hub repo (owner/name) or id=owner/name.`,
    );
  const repo = repoArg ?? (voice ? voice.repo : sourceOf(id)?.repo) ?? id;
  // The catalogue's commit belongs to its own repo, not to one named on the command line.
  const pinned = repoArg ? undefined : voice ? voice.revision : sourceOf(id)?.revision;
  const folder = known ? id : id.split('/').pop()!;
  return {
    id: folder,
    repo: { host, repo, revision: revision ?? pinned ?? 'main' },
    layout: known ?? 'chat',
  };
}

/** A FileLoader that answers `has` from a repo listing, so the engines' own file lists run unchanged. */
const listingLoader = (names: Set<string>): FileLoader => ({
  has: async (file) => names.has(file),
  load: async (file) => {
    throw new Error(`${file}: the file list does not read files.`);
  },
});

const guessLayout = (names: Set<string>): Layout | undefined => {
  const all = [...names];
  if (all.some((name) => /^onnx\/encoder_model/.test(name))) return 'whisper';
  if (names.has('unet/model.onnx')) return 'diffusion';
  if (all.some((name) => /^voices\/.*\.bin$/.test(name))) return 'kokoro';
  if (names.has('vocab.json') && !names.has('tokenizer.json')) return 'vits';
  if (all.some((name) => /(^|\/)model[\w]*\.onnx$/.test(name))) return 'chat';
  return undefined;
};

/** The files a layout's engine reads for one dtype, from its own list. */
async function filesFor(layout: Layout, names: Set<string>, dtype: string, target: Target): Promise<FileSpec[]> {
  const loader = listingLoader(names);
  if (layout === 'chat') return llmFiles(loader, [dtype]);
  if (layout === 'whisper') return whisperFiles(loader, [dtype]);
  if (layout === 'embeddings') return encoderFiles(loader, [dtype]);
  // A diffusers export has one graph per stage, whatever its dtype.
  if (layout === 'diffusion') return diffusionFiles(loader);
  const voice = voiceWeights().get(target.id);
  // Piper and sherpa-onnx voices ship one graph each: the catalogue's files, whatever the dtype.
  if (layout === 'piper' || layout === 'sherpa-vits') return [...(voice?.files ?? [])].map((name) => ({ name }));
  const graph = modelFile(dtype);
  if (!names.has(graph)) throw new Error(`no ${graph}`);
  const listed = voice ? [...voice.files] : layout === 'kokoro' ? [...names].filter((n) => /^voices\//.test(n)) : [];
  const extra = layout === 'kokoro' ? ['tokenizer.json'] : ['vocab.json', 'tokenizer_config.json', 'config.json'];
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
  const known = Boolean(layoutOf(target.id)) || voiceWeights().has(target.id);
  const layout = known ? target.layout : guessLayout(names);
  if (!layout) throw new Error(`${target.repo.repo} has no ONNX model this library runs (no model*.onnx files).`);
  const tryDtypes = dtypes.length
    ? dtypes
    : VOICE_LAYOUTS.includes(layout)
      ? ['q8']
      : layout === 'diffusion'
        ? [(known && sourceOf(target.id)?.dtype) || 'fp32']
        : WASM_DTYPES;
  const chosen: string[] = [];
  const files = new Map<string, PlannedFile>();
  const failures: string[] = [];
  for (const dtype of tryDtypes) {
    let specs: FileSpec[];
    try {
      specs = await filesFor(layout, names, dtype, target);
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
  return { ...target, key: known ? target.id : layoutKey(layout), layout, dtypes: chosen, files: [...files.values()] };
}
