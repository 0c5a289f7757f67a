import { createHash } from 'node:crypto';
import { cp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { FOLDER_MANIFEST, type FolderManifest } from '../../../src/common/weights';
import { ensureDecoderFixture, fixturesRoot } from '../../fixtures/llm/fixture-dir';
import { tinyQwen2 } from '../../fixtures/llm/spec';

async function listFiles(dir: string, under = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(dir, under), { withFileTypes: true })) {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await listFiles(dir, path)));
    else if (entry.name !== 'fixture.json') out.push(path);
  }
  return out;
}

/**
 * A copy of the generated tiny Qwen2 export (chat-v2) in a folder of its own under the test server,
 * with the vaani-manifest.json `vaani pull` writes (exact sizes and hashes); `remove` deletes it.
 */
export async function manifestFolder(name: string) {
  const folder = join(fixturesRoot, `${name}-${process.pid}`);
  const fixture = await ensureDecoderFixture('tiny-qwen2', tinyQwen2);
  await rm(folder, { recursive: true, force: true });
  await cp(fixture.dir, folder, { recursive: true });
  const files = await Promise.all(
    (await listFiles(folder)).map(async (file) => ({
      name: file,
      size: (await stat(join(folder, file))).size,
      sha256: createHash('sha256')
        .update(await readFile(join(folder, file)))
        .digest('hex'),
    })),
  );
  const manifest: FolderManifest = {
    vaani: 1,
    model: 'chat-v2',
    source: { host: 'https://huggingface.co', repo: 'test-org/tiny-qwen2', revision: 'main' },
    dtypes: ['fp32'],
    files,
  };
  await writeFile(join(folder, FOLDER_MANIFEST), JSON.stringify(manifest));
  return {
    url: `/test/.fixtures/${relative(fixturesRoot, folder)}/`,
    manifest,
    remove: () => rm(folder, { recursive: true, force: true }),
  };
}
