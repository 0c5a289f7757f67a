import type { EngineRegistry } from '../runtime/engines';
import type { VaaniOptions } from '../types';
import type { ModelResolver } from './models';
import { sourceBase } from './source';

/** A model's files: `options.models[id].files` when given, else what its engine factory lists. */
export function modelResolver(options: VaaniOptions, registry: EngineRegistry): ModelResolver {
  return async (id) => {
    const source = options.models?.[id];
    if (source?.files)
      return {
        base: sourceBase(source),
        files: source.files.map((file) => (typeof file === 'string' ? { name: file } : file)),
      };
    return registry.files(id);
  };
}
