import { readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { FOLDER_MANIFEST, isCommit, parseFolderManifest, type FolderManifest } from '../common/weights';
import { PullError, pullFile } from './download';
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

/** What the folder's manifest already says of a file: kept as the file's expected SHA-256 (trust-on-first-use). */
const FIRST_PULL = "the folder's vaani-manifest.json recorded at the first pull (trust-on-first-use)";

/**
 * Downloads a plan's files into `<to>/<id>/` and writes the manifest (merged with an earlier pull's
 * other dtypes). The first answer's X-Repo-Commit pins the rest of the pull to that commit, and the
 * manifest records it. A file the folder's manifest already lists, pulled again from a branch (or the
 * same commit), must have the SHA-256 recorded then (trust-on-first-use).
 */
export async function pull(plan: Plan, options: PullOptions): Promise<FolderManifest> {
  const log = options.log ?? process.stderr;
  const folder = join(options.to, plan.id);
  const files: FolderManifest['files'] = [];
  const total = plan.files.reduce((sum, file) => sum + file.size, 0);
  const earlier = await readManifestIn(folder).catch(() => undefined);
  const asked = plan.repo.revision;
  const trusted =
    earlier?.source.repo === plan.repo.repo && (!isCommit(asked) || earlier.source.revision === asked)
      ? earlier
      : undefined;
  let revision = asked;
  log.write(
    `${plan.id}: ${plan.files.length} files, ${formatSize(total)} (${plan.dtypes.join(', ')}) from ${plan.repo.repo}@${asked} into ${folder}${sep}\n`,
  );
  if (!isCommit(asked))
    log.write(
      `${plan.id}: '${asked}' is a branch, not a commit: files are checked against the hub's headers and the folder's manifest.\n`,
    );
  for (const file of plan.files) {
    const url = fileUrl({ ...plan.repo, revision }, file.path);
    const recorded = trusted?.files.find((old) => old.name === file.path)?.sha256;
    if (recorded && file.sha256 && recorded !== file.sha256)
      throw new PullError(
        `${file.path} of ${plan.repo.repo}@${asked} changed: the hub lists SHA-256 ${file.sha256}, ${FIRST_PULL} ${recorded}. Nothing was downloaded. Pull a commit on purpose with --revision <commit>, or delete ${join(folder, FOLDER_MANIFEST)} to trust the new files.`,
      );
    const line = progressLine(file.path, log);
    const result = await pullFile({
      url,
      dest: join(folder, ...file.path.split('/')),
      name: file.path,
      size: file.size,
      sha256: file.sha256 ?? recorded,
      sha256From: file.sha256 ? undefined : FIRST_PULL,
      retries: options.retries,
      stallMs: options.stallMs,
      backoffMs: options.backoffMs,
      fetch: options.fetch,
      onProgress: line.update,
      onRetry: (attempt, reason) => line.note(`${reason}; retry ${attempt}, resuming`),
    });
    line.done(result.size, result.reused);
    if (result.commit && result.commit !== revision) {
      if (isCommit(revision))
        throw new PullError(
          `${file.path} came from commit ${result.commit}, the rest of ${plan.repo.repo} from ${revision}: the repo moved during the pull. Run it again.`,
        );
      log.write(`${plan.id}: ${asked} is commit ${result.commit}; the rest is pulled from it.\n`);
      revision = result.commit;
    }
    files.push({ name: file.path, size: result.size, sha256: result.sha256 });
  }
  const sameSource = earlier && earlier.source.repo === plan.repo.repo && earlier.source.revision === revision;
  const kept = sameSource ? earlier.files.filter((old) => !files.some((file) => file.name === old.name)) : [];
  const manifest: FolderManifest = {
    vaani: 1,
    model: plan.id,
    source: { ...plan.repo, revision },
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
