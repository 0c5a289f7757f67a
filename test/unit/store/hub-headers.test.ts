import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchUncached } from '../../../src/common/weights/download';

const COMMIT = 'ab'.repeat(20);
const URL_ = `https://hub.test/org/m/resolve/${COMMIT}/tokenizer.json`;
const good = new TextEncoder().encode(JSON.stringify({ model: { vocab: { a: 1, b: 2 } } }));
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Answers every fetch with `body` and the hub's headers describing `real`. */
function serve(body: Uint8Array, real: Uint8Array, commit = COMMIT) {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(body.slice(), {
          headers: {
            'content-type': 'application/json',
            'content-length': String(body.length),
            'x-repo-commit': commit,
            'x-linked-etag': `"${sha(real)}"`,
            'x-linked-size': String(real.length),
          },
        }),
    ),
  );
}
const load = () => fetchUncached({ spec: { name: 'tokenizer.json' }, url: URL_, model: 'm' });

describe("downloads are checked against the hub's X-Linked-Etag, X-Linked-Size and X-Repo-Commit", () => {
  afterEach(() => vi.unstubAllGlobals());

  it('takes a file that matches them', async () => {
    serve(good, good);
    expect(Buffer.from(await load()).equals(Buffer.from(good))).toBe(true);
  });

  it('refuses the right size with the wrong bytes, naming the SHA-256s and who gave the expected one', async () => {
    const wrong = good.slice();
    wrong[wrong.length - 3] = 0x30;
    serve(wrong, good);
    await expect(load()).rejects.toMatchObject({
      code: 'bad_checksum',
      message: `tokenizer.json from ${URL_} has the wrong SHA-256: got ${sha(wrong)}, expected ${sha(good)} (the hub's X-Linked-Size / X-Linked-Etag). It was not cached.`,
    });
  });

  it('refuses the wrong size before reading it', async () => {
    serve(good.subarray(0, good.length - 5), good);
    await expect(load()).rejects.toMatchObject({
      code: 'wrong_size',
      message: expect.stringContaining(
        `got ${good.length - 5} bytes, expected ${good.length} (the hub's X-Linked-Size`,
      ),
    });
  });

  it('refuses an answer from another commit than the one the URL pins', async () => {
    serve(good, good, 'cd'.repeat(20));
    await expect(load()).rejects.toMatchObject({
      code: 'not_a_file',
      message: expect.stringContaining(`came from commit ${'cd'.repeat(20)} (X-Repo-Commit), not the pinned ${COMMIT}`),
    });
  });
});
