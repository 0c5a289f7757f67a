import { afterEach, describe, expect, it, vi } from 'vitest';
import { MODEL_TABLE, UNPINNED } from '../../../src/catalogue/families';
import { INDIC_SOURCES, modelSource } from '../../../src/catalogue/sources';
import { VOICES } from '../../../src/catalogue/voices';
import { hubHeaders, isCommit } from '../../../src/common/weights';
import { pinnedBase } from '../../../src/page/engines/_model-files';

afterEach(() => vi.restoreAllMocks());

describe('the catalogue pins its default sources', () => {
  it('names a revision for every default hub source: a commit, or the UNPINNED marker', () => {
    const defaults = [
      ...Object.values(MODEL_TABLE).flatMap((entry) => (entry.source?.repo ? [entry.source] : [])),
      ...Object.values(INDIC_SOURCES),
      ...VOICES.flatMap((voice) => (voice.spec.engine === 'espeak' ? [] : [voice.spec.download])),
    ];
    expect(defaults.length).toBeGreaterThan(8);
    for (const source of defaults) expect(isCommit(source.revision) || source.revision === UNPINNED).toBe(true);
    expect(defaults.filter((source) => isCommit(source.revision)).length).toBeGreaterThanOrEqual(3);
  });
});

describe('pinnedBase', () => {
  it('warns once for an unpinned catalogue default, saying so, and never for a commit or a folder', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const pinned = modelSource('chat-v2');
    expect(pinnedBase('chat-v2', pinned)).toContain(`/resolve/${pinned.revision}/`);
    expect(pinnedBase('chat-v2', { baseURL: 'https://example.com/models/chat-v2/' })).toBe(
      'https://example.com/models/chat-v2/',
    );
    expect(warn).not.toHaveBeenCalled();

    // A host of its own: other test files share this module's once-per-source memory.
    const unpinned = { ...modelSource('chat-v2-pro'), host: 'https://pins-test.example' };
    expect(unpinned.revision).toBe(UNPINNED);
    pinnedBase('chat-v2-pro', unpinned);
    pinnedBase('chat-v2-pro', unpinned);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toContain(
      `chat-v2-pro loads ${unpinned.repo} from https://pins-test.example/${unpinned.repo}/resolve/main/, a branch ('main'), not a commit (Vaani's catalogue names no commit for this default yet: it is unpinned)`,
    );
    expect(warn.mock.calls[0]![0]).toContain('npx vaani pull chat-v2-pro --to public/models');

    pinnedBase('chat-v2', { repo: 'someone/fork', revision: 'dev', host: 'https://pins-test.example' });
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[1]![0]).not.toContain('catalogue');
  });
});

describe('hubHeaders', () => {
  it("reads X-Repo-Commit, an LFS file's X-Linked-Etag and X-Linked-Size, and ignores what is not those", () => {
    const sha = 'ab'.repeat(32);
    const commit = 'cd'.repeat(20);
    expect(
      hubHeaders(new Headers({ 'x-repo-commit': commit, 'x-linked-etag': `"${sha}"`, 'x-linked-size': '1234' })),
    ).toEqual({ commit, sha256: sha, size: 1234 });
    // A git blob ETag (40 hex) is not a SHA-256; a weak ETag is read through.
    expect(hubHeaders(new Headers({ 'x-linked-etag': `"${commit}"`, 'x-linked-size': 'x' }))).toEqual({
      commit: undefined,
      sha256: undefined,
      size: undefined,
    });
    expect(hubHeaders(new Headers({ 'x-linked-etag': `W/"${sha.toUpperCase()}"` })).sha256).toBe(sha);
  });
});
