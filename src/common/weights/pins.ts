import { StoreError } from './errors';
import { toHex } from './checks';
import type { FileSpec, Pin } from './types';

/** What the hub says of a file in its answer: the commit it came from, and for LFS files their SHA-256 and size. */
export interface HubHeaders {
  commit?: string;
  sha256?: string;
  size?: number;
}

const COMMIT = /^[0-9a-f]{40}$/i;
const SHA256 = /^[0-9a-f]{64}$/i;

/** Whether a URL is a hub file (`…/resolve/{revision}/…`): only those are held to their first download. */
export const isHubFile = (url: string) => /\/resolve\/[^/]+\//.test(new URL(url).pathname);

/** Whether a revision names a commit (40 hex digits) rather than a branch or tag that can move. */
export const isCommit = (revision: string | undefined) => COMMIT.test(revision ?? '');

/** The hub's X-Repo-Commit, X-Linked-Etag (an LFS file's SHA-256) and X-Linked-Size, where sent and readable. */
export function hubHeaders(headers: Headers): HubHeaders {
  const commit = headers.get('x-repo-commit')?.trim();
  const etag = headers.get('x-linked-etag')?.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
  const size = Number(headers.get('x-linked-size') ?? NaN);
  return {
    commit: COMMIT.test(commit ?? '') ? commit!.toLowerCase() : undefined,
    sha256: SHA256.test(etag ?? '') ? etag!.toLowerCase() : undefined,
    size: Number.isSafeInteger(size) && size >= 0 ? size : undefined,
  };
}

/** One statement of what a file must be, and who made it (named in the error). */
export interface Expectation {
  size?: number;
  sha256?: string;
  from: string;
  /** A trust-on-first-use record: a mismatch means the file changed upstream. */
  firstUse?: boolean;
}

/** Every statement known for a download: its listing (vaani-manifest.json, `files`), the hub's headers, its first download. */
export function expectations(spec: FileSpec, hub: HubHeaders, pin: Pin | undefined): Expectation[] {
  const found: Expectation[] = [];
  if (spec.size !== undefined || spec.sha256)
    found.push({ size: spec.size, sha256: spec.sha256?.toLowerCase(), from: 'the size and SHA-256 it is listed with' });
  if (hub.size !== undefined || hub.sha256)
    found.push({ size: hub.size, sha256: hub.sha256, from: "the hub's X-Linked-Size / X-Linked-Etag" });
  if (pin)
    found.push({
      size: pin.size,
      sha256: pin.sha256,
      from: `what was recorded when it was first downloaded (trust-on-first-use${pin.commit ? `, commit ${pin.commit}` : ''})`,
      firstUse: true,
    });
  return found;
}

const changedAdvice = (url: string) =>
  ` The file at ${url} changed since this browser first downloaded it: pin the model's revision to the commit you mean (createVaani({ models: { id: { revision: '<commit>' } } })) or serve your own checked copy (npx vaani pull).`;

/** Rejects a size that differs from any expectation (before or after the body is read). */
export function verifySize(file: string, url: string, size: number, expected: Expectation[]): void {
  const wrong = expected.find((e) => e.size !== undefined && e.size !== size);
  if (!wrong) return;
  throw new StoreError(
    'wrong_size',
    `${file} from ${url} has the wrong size: got ${size} bytes, expected ${wrong.size} (${wrong.from}). It was not cached.${wrong.firstUse ? changedAdvice(url) : ''}`,
    file,
    url,
  );
}

/** Rejects a SHA-256 that differs from any expectation. */
export function verifySha256(file: string, url: string, sha256: string, expected: Expectation[]): void {
  const wrong = expected.find((e) => e.sha256 && e.sha256 !== sha256);
  if (!wrong) return;
  throw new StoreError(
    'bad_checksum',
    `${file} from ${url} has the wrong SHA-256: got ${sha256}, expected ${wrong.sha256} (${wrong.from}). It was not cached.${wrong.firstUse ? changedAdvice(url) : ''}`,
    file,
    url,
  );
}

/** Rejects an answer from another commit than the one the URL pins (`…/resolve/{commit}/…`). */
export function verifyCommit(file: string, url: string, hub: HubHeaders): void {
  const pinned = url.match(/\/resolve\/([^/]+)\//)?.[1];
  if (!hub.commit || !isCommit(pinned) || pinned!.toLowerCase() === hub.commit) return;
  throw new StoreError(
    'not_a_file',
    `${file} from ${url} came from commit ${hub.commit} (X-Repo-Commit), not the pinned ${pinned}. It was not cached.`,
    file,
    url,
  );
}

/** Lower-case hex SHA-256 of a file held whole or as Blobs. */
export async function sha256Of(data: Blob | Uint8Array<ArrayBuffer>): Promise<string> {
  const bytes = data instanceof Blob ? await data.arrayBuffer() : data;
  return toHex(await crypto.subtle.digest('SHA-256', bytes));
}
