import { transferProgress } from './progress';
import type { FileProgress, ModelProgress } from './types';

/** Progress of a model from the latest progress of each of its files. Total is known once every file's is. */
export function modelProgress(model: string, files: FileProgress[]): ModelProgress {
  const loaded = files.reduce((sum, file) => sum + file.loaded, 0);
  const totals = files.map((file) => file.total);
  const total = totals.every((size): size is number => size !== undefined)
    ? totals.reduce((sum, size) => sum + size, 0)
    : undefined;
  const rate = files.reduce((sum, file) => sum + (file.fraction === 1 ? 0 : file.rate), 0);
  return { model, ...transferProgress(loaded, total, rate), files };
}
