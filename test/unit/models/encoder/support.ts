import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileLoader } from '../../../../src/protocol/weights';

/** A FileLoader over a folder on disk (the fixture export as a browser would fetch it). */
export function directoryLoader(dir: string): FileLoader {
  return {
    load: async (file) => new Uint8Array(await readFile(join(dir, file))),
    has: async (file) =>
      stat(join(dir, file)).then(
        (info) => info.isFile(),
        () => false,
      ),
  };
}

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Infinity;
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
  return worst;
}
