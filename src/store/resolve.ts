import type { EngineRegistry } from '../runtime/engines';
import type { VaaniOptions } from '../types';
import type { ModelResolver } from './models';
import { fetchFolderManifest } from './folder';
import { isFolderBase } from './folder-manifest';
import { sourceBase } from './source';

/**
 * A model's files: `options.models[id].files` when given, else what its engine factory lists, else
 * (a neural voice's weights, say) the vaani-manifest.json of the folder its `baseURL` names.
 */
export function modelResolver(options: VaaniOptions, registry: EngineRegistry): ModelResolver {
  return async (id) => {
    const source = options.models?.[id];
    if (source?.files)
      return {
        base: sourceBase(source),
        files: source.files.map((file) => (typeof file === 'string' ? { name: file } : file)),
      };
    const listed = await registry.files(id);
    if (listed || !source?.baseURL) return listed;
    const base = sourceBase(source);
    const manifest = isFolderBase(base) ? await fetchFolderManifest(base) : undefined;
    return manifest && { base, files: manifest.files };
  };
}
