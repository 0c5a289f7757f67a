import { readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { FOLDER_MANIFEST, parseFolderManifest, type FolderManifest } from '../common/weights';
import { pullFile } from './download';
import { fileUrl } from './hub';
import type { Plan } from './plan';
import { formatSize, progressLine } from './progress';

export interface PullOptions {
  /** The folder models go into, one sub-folder per id. */
  to: string;
  retries?: number;
  stallMs?: number;
  backoffMs?: number;
  fetch?: typeof fetch;
  log?: NodeJS.WriteStream;
}

/** The manifest a folder already has, when it is readable. */
export async function readManifestIn(folder: string): Promise<FolderManifest | undefined> {
  const path = join(folder, FOLDER_MANIFEST);
  const text = await readFile(path, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : parseFolderManifest(text, path);
}

/** Downloads a plan's files into `<to>/<id>/` and writes the manifest (merged with an earlier pull's other dtypes). */
export async function pull(plan: Plan, options: PullOptions): Promise<FolderManifest> {
  const log = options.log ?? process.stderr;
  const folder = join(options.to, plan.id);
  const files: FolderManifest['files'] = [];
  const total = plan.files.reduce((sum, file) => sum + file.size, 0);
  log.write(
    `${plan.id}: ${plan.files.length} files, ${formatSize(total)} (${plan.dtypes.join(', ')}) from ${plan.repo.repo} into ${folder}${sep}\n`,
  );
  for (const file of plan.files) {
    const line = progressLine(file.path, log);
    const result = await pullFile({
      url: fileUrl(plan.repo, file.path),
      dest: join(folder, ...file.path.split('/')),
      name: file.path,
      size: file.size,
      sha256: file.sha256,
      retries: options.retries,
      stallMs: options.stallMs,
      backoffMs: options.backoffMs,
      fetch: options.fetch,
      onProgress: line.update,
      onRetry: (attempt, reason) => line.note(`${reason}; retry ${attempt}, resuming`),
    });
    line.done(result.size, result.reused);
    files.push({ name: file.path, size: result.size, sha256: result.sha256 });
  }
  const earlier = await readManifestIn(folder).catch(() => undefined);
  const sameSource =
    earlier && earlier.source.repo === plan.repo.repo && earlier.source.revision === plan.repo.revision;
  const kept = sameSource ? earlier.files.filter((old) => !files.some((file) => file.name === old.name)) : [];
  const manifest: FolderManifest = {
    vaani: 1,
    model: plan.id,
    source: { ...plan.repo },
    dtypes: [...new Set([...(sameSource ? earlier.dtypes : []), ...plan.dtypes])],
    files: [...kept, ...files].sort((a, b) => a.name.localeCompare(b.name)),
  };
  await writeFile(join(folder, FOLDER_MANIFEST), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

/** The URL path a folder is served at: below `public/` as vite and most frameworks serve it, else the path itself. */
export function servedPath(folder: string, cwd = process.cwd()): string {
  const parts = relative(cwd, resolve(cwd, folder)).split(sep).filter(Boolean);
  const publicAt = parts.indexOf('public');
  const served = publicAt >= 0 ? parts.slice(publicAt + 1) : parts;
  return `/${served.map((part) => `${part}/`).join('')}`;
}

/** The `createVaani` line for the pulled models. */
export function snippet(plans: Pick<Plan, 'id' | 'key'>[], to: string): string {
  const base = servedPath(to);
  const entries = plans.map((plan) => `'${plan.key}': { baseURL: '${base}${plan.id}/' }`).join(', ');
  return `createVaani({ models: { ${entries} } });`;
}
