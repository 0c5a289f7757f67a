import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { expect } from 'vitest';

/**
 * Compares `actual` with the JSON golden file at `url`. With `UPDATE_GOLDEN=1` in the environment it
 * rewrites the file instead (formatted as `npm run lint` wants it); review its diff before committing.
 */
export async function expectGolden(url: URL, actual: unknown): Promise<void> {
  const path = fileURLToPath(url);
  const value: unknown = JSON.parse(JSON.stringify(actual));
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(dirname(path), { recursive: true });
    const options = { ...(await resolveConfig(path)), filepath: path };
    writeFileSync(path, await format(JSON.stringify(value), options));
    return;
  }
  if (!existsSync(path)) throw new Error(`No golden file ${path}: run the test once with UPDATE_GOLDEN=1.`);
  expect(value, `differs from ${path} (UPDATE_GOLDEN=1 rewrites it)`).toEqual(JSON.parse(readFileSync(path, 'utf8')));
}
