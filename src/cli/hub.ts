/** One file of a hub repo as its tree API lists it. `sha256` is known for LFS files only. */
export interface HubFile {
  path: string;
  size: number;
  sha256?: string;
}

export interface HubRepo {
  host: string;
  repo: string;
  revision: string;
}

interface TreeEntry {
  type: string;
  path: string;
  size: number;
  lfs?: { oid: string; size: number };
}

export const fileUrl = ({ host, repo, revision }: HubRepo, path: string) =>
  `${host.replace(/\/+$/, '')}/${repo}/resolve/${encodeURIComponent(revision)}/${path.split('/').map(encodeURIComponent).join('/')}`;

const nextLink = (header: string | null) => header?.match(/<([^>]+)>;\s*rel="next"/)?.[1];

/**
 * Every file of a repo at a revision, from the hub's tree API (`/api/models/{repo}/tree/{revision}?recursive=true`,
 * following its `Link: rel="next"` pages), which the Hugging Face hub and its mirrors answer.
 */
export async function listRepo(source: HubRepo, fetchImpl: typeof fetch = fetch): Promise<HubFile[]> {
  const files: HubFile[] = [];
  const start = `${source.host.replace(/\/+$/, '')}/api/models/${source.repo}/tree/${encodeURIComponent(source.revision)}?recursive=true`;
  for (let url: string | undefined = start; url;) {
    let response: Response;
    try {
      response = await fetchImpl(url, { headers: { accept: 'application/json' } });
    } catch (error) {
      throw new HubUnreachable(source.host, error);
    }
    if (!response.ok) {
      await response.body?.cancel();
      const why = response.status === 404 ? 'no such repo or revision' : `HTTP ${response.status}`;
      throw new Error(`Could not list ${source.repo}@${source.revision} on ${source.host}: ${why}.`);
    }
    if (!response.headers.get('content-type')?.includes('json')) {
      await response.body?.cancel();
      throw new Error(
        `${source.host} answered the file list of ${source.repo} with a page that is not JSON (a login or error page?).`,
      );
    }
    const entries = (await response.json()) as TreeEntry[];
    for (const entry of entries)
      if (entry.type === 'file')
        files.push({ path: entry.path, size: entry.lfs?.size ?? entry.size, sha256: entry.lfs?.oid });
    url = nextLink(response.headers.get('link'));
    if (url) url = new URL(url, start).href;
  }
  return files;
}

/** No answer at all from the hub or mirror (no such host, refused, cut, timed out): nothing of it can be listed. */
export class HubUnreachable extends Error {
  override name = 'HubUnreachable';
  constructor(
    readonly host: string,
    error: unknown,
  ) {
    // Node's fetch says only 'fetch failed'; the reason (getaddrinfo ENOTFOUND …) is its cause.
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    super(`Could not reach ${host} (${cause instanceof Error ? cause.message : String(cause)}).`, { cause: error });
  }
}

export const describe = (error: unknown) => {
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return (error instanceof Error ? error.message : String(error)) + cause;
};
