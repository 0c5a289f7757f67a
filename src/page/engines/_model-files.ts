import { backendAttempts } from '../../common/backends/plan';
import { probeWebGpu } from '../../common/backends/webgpu';
import { configuredSource, filesOwner, filesSource, sourceBase } from '../../catalogue/sources';
import {
  fetchFolderManifest,
  fetchLoader,
  folderLoader,
  isCommit,
  isFolderBase,
  pullCommand,
  type ModelResolver,
} from '../../common/weights';
import { sourceOf } from '../../catalogue/families';
import type { FileLoader, FileSpec, ModelFiles } from '../../protocol/weights';
import type { EngineRegistry } from './_registry';
import type { ModelSource, VaaniOptions } from '../../protocol/options';
import type { ModelJob } from '../../protocol/jobs';
import { voiceWeights } from '../../catalogue/voices';

const warned = new Set<string>();

/**
 * A source's base URL. A hub source that names a branch (such as `main`) rather than a commit is
 * said once per source on the console: its files can change upstream; they are checked against the
 * hub's headers where sent, else trust-on-first-use.
 */
export function pinnedBase(id: string, source: ModelSource): string {
  const base = sourceBase(source);
  if (source.baseURL || !source.repo || isCommit(source.revision) || warned.has(base)) return base;
  warned.add(base);
  const fallback = sourceOf(id) ?? voiceWeights(id);
  const catalogue =
    fallback?.repo === source.repo ? " (Vaani's catalogue names no commit for this default yet: it is unpinned)" : '';
  console.warn(
    `Vaani: ${id} loads ${source.repo} from ${base}, a branch ('${source.revision ?? 'main'}'), not a commit${catalogue}: its files can change upstream. ` +
      `Each file is checked against the hub's X-Linked-Etag / X-Linked-Size where sent, else against its first download in this browser (trust-on-first-use). ` +
      `For production pin it, createVaani({ models: { '${id}': { revision: '<commit>' } } }), or serve your own copy: ${pullCommand(id)}.`,
  );
  return base;
}

/** `options.models[id].files` as specs. */
const givenFiles = (files: NonNullable<ModelSource['files']>): FileSpec[] =>
  files.map((file) => (typeof file === 'string' ? { name: file } : file));

/**
 * What `ai.models.load(modelId)` fetches: the files `list` names for the first dtypes this browser
 * would try. Which files exist (and their sizes and SHA-256) is read from the source's `files` when
 * given (a folder's listing: nothing is probed, and optional files it lacks are left out), else a
 * folder's vaani-manifest.json, else by asking the source.
 */
export async function modelFiles(
  modelId: string,
  options: VaaniOptions,
  list: (loader: FileLoader, dtypes: readonly string[]) => Promise<FileSpec[]>,
): Promise<ModelFiles> {
  const source = filesSource(modelId, options);
  const base = pinnedBase(filesOwner(modelId, options.models), source);
  const choice = options.backend ?? 'auto';
  const [first] = backendAttempts(choice, choice === 'wasm' ? undefined : await probeWebGpu(), source.dtype);
  const given = source.files && givenFiles(source.files);
  const fetched = fetchLoader(base);
  const pull = pullCommand(filesOwner(modelId, options.models));
  const folder = !given && isFolderBase(base) ? folderLoader(base, { pull }, () => fetched) : undefined;
  const known = given ?? (await folder?.manifest())?.files ?? [];
  const listed = (file: string) => given!.some((spec) => spec.name === file);
  const loader: FileLoader = given ? { ...fetched, has: async (file) => listed(file) } : (folder ?? fetched);
  const files = await list(loader, first!.dtypes);
  return {
    base,
    files: files
      .filter((spec) => !given || !spec.optional || listed(spec.name))
      .map((spec) => ({ ...spec, ...known.find((file) => file.name === spec.name) })),
  };
}

/**
 * Where a worker loads a model from and how it runs it: the part every model job shares. The files
 * are recorded under the id that owns them (agent-v1's under chat-v2 while it reads chat-v2's).
 */
export const modelJob = (modelId: string, options: VaaniOptions, source: ModelSource): ModelJob => ({
  model: filesOwner(modelId, options.models),
  base: pinnedBase(filesOwner(modelId, options.models), source),
  store: options.store,
  dtype: source.dtype,
  backend: options.backend ?? 'auto',
  threads: options.threads,
});

/**
 * A model's files: what its engine factory lists (the files it reads, in this browser's dtype; a
 * `files` option only says which exist), else `options.models[id].files` (or those of the id whose
 * files it reads), else the vaani-manifest.json of the folder its `baseURL` names, else a neural
 * voice family's files (from the voice catalogue: kokoro-82m, mms-tts-hin).
 */
export function modelResolver(options: VaaniOptions, registry: EngineRegistry): ModelResolver {
  return async (id) => {
    const listed = await registry.files(id);
    if (listed) return listed;
    const source = configuredSource(id, options.models);
    if (source?.files) return { base: sourceBase(source), files: givenFiles(source.files) };
    if (source?.baseURL) {
      const base = sourceBase(source);
      const manifest = isFolderBase(base) ? await fetchFolderManifest(base) : undefined;
      if (manifest) return { base, files: manifest.files };
    }
    // A neural voice family's weights (kokoro-82m, mms-tts-hin): the files its voices read.
    const voice = voiceWeights(id);
    return voice && { base: pinnedBase(id, source ?? voice), files: voice.files };
  };
}
