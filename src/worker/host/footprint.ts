import type { FileLoader } from '../../protocol/weights';

let bytes = 0;

/** The bytes of model files this worker's current model was loaded from: what it holds, near enough. */
export const footprint = (): number => bytes;

/**
 * A loader that counts what it hands out as the worker's footprint. A worker keeps one model
 * (src/worker/host/model-slot.ts): wrapping a new model's loader starts the count again.
 */
export function counted<L extends FileLoader>(loader: L): L {
  bytes = 0;
  return {
    ...loader,
    load: async (file, options) => {
      const data = await loader.load(file, options);
      bytes += data.byteLength;
      return data;
    },
  };
}
