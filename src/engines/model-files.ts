import { backendAttempts } from '../backends/plan';
import { probeWebGpu } from '../backends/webgpu';
import { modelSource } from '../catalogue/sources';
import { folderLoader } from '../store/folder';
import { isFolderBase, pullCommand } from '../store/folder-manifest';
import { fetchLoader, type FileLoader } from '../store/loader';
import { sourceBase } from '../store/source';
import type { FileSpec, ModelFiles } from '../store/types';
import type { ModelSource, VaaniOptions } from '../types';
import type { ModelJob } from '../workers/model-slot';

/**
 * What `ai.models.load(modelId)` fetches: the files `list` names for the first dtypes this browser
 * would try; for a folder with a vaani-manifest.json, read from it with its sizes and SHA-256.
 */
export async function modelFiles(
  modelId: string,
  options: VaaniOptions,
  list: (loader: FileLoader, dtypes: readonly string[]) => Promise<FileSpec[]>,
): Promise<ModelFiles> {
  const source = modelSource(modelId, options.models);
  const base = sourceBase(source);
  const choice = options.backend ?? 'auto';
  const [first] = backendAttempts(choice, choice === 'wasm' ? undefined : await probeWebGpu(), source.dtype);
  if (!isFolderBase(base)) return { base, files: await list(fetchLoader(base), first!.dtypes) };
  const folder = folderLoader(base, { pull: pullCommand(modelId) }, () => fetchLoader(base));
  const listed = (await folder.manifest())?.files ?? [];
  const files = await list(folder, first!.dtypes);
  return { base, files: files.map((spec) => ({ ...spec, ...listed.find((file) => file.name === spec.name) })) };
}

/** Where a worker loads a model from and how it runs it: the part every model job shares. */
export const modelJob = (modelId: string, options: VaaniOptions, source: ModelSource): ModelJob => ({
  model: modelId,
  base: sourceBase(source),
  store: options.store,
  dtype: source.dtype,
  backend: options.backend ?? 'auto',
  threads: options.threads,
});
