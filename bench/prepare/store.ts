/**
 * Writes the weight-store bench file before the bench page opens: 128 MiB of random bytes at
 * test/.fixtures/bench-store/weights.bin (served to the page at the same path).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, stat, writeFile } from 'node:fs/promises';

const SIZE = 128 * 1024 * 1024;
const dir = new URL('../../test/.fixtures/bench-store/', import.meta.url);
const file = new URL('weights.bin', dir);
if ((await stat(file).catch(() => undefined))?.size !== SIZE) {
  await mkdir(dir, { recursive: true });
  await writeFile(file, randomBytes(SIZE));
}
console.log(`store bench file at ${file.pathname}`);
