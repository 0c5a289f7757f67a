import { createHash } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sourceOf } from '../../../src/catalogue/families';
import { PullError } from '../../../src/cli/download';
import { parseTarget, planPull } from '../../../src/cli/plan';
import { pull } from '../../../src/cli/pull';
import { FOLDER_MANIFEST, parseFolderManifest } from '../../../src/common/weights';
import { commitOf, onnxLike, startHub } from '../../support/hub-server';

const text = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const REPO = 'test-org/pinned-chat';
const DEFAULT_REPO = sourceOf('chat-v2')!.repo!;
const GRAPH = 'onnx/model_quantized.onnx';
const files = {
  'tokenizer.json': text({ model: { type: 'BPE', vocab: {} } }),
  'tokenizer_config.json': text({ chat_template: '{{ messages }}' }),
  'config.json': text({ model_type: 'qwen3' }),
  [GRAPH]: onnxLike(40_000, 9),
};
const quiet = { write: () => true, isTTY: false } as unknown as NodeJS.WriteStream;

let hub: Awaited<ReturnType<typeof startHub>>;
let to: string;

beforeAll(async () => {
  hub = await startHub({ [REPO]: files, [DEFAULT_REPO]: files }, undefined, {
    commits: { [DEFAULT_REPO]: sourceOf('chat-v2')!.revision! },
  });
});
afterAll(() => hub.close());
afterEach(async () => {
  hub.requests.length = 0;
  hub.options.headers = true;
  for (const name of Object.keys(files)) hub.tamper(REPO, name, undefined);
  if (to) await rm(to, { recursive: true, force: true });
});
const fresh = async () => (to = await mkdtemp(join(tmpdir(), 'vaani-pin-')));
const options = () => ({ to, log: quiet, backoffMs: 10, retries: 1 });
const plan = (arg: string, revision?: string) => planPull(parseTarget(arg, hub.url, revision));
const fileRequests = () => hub.requests.filter((r) => r.path.includes('/resolve/'));
const folder = () => join(to, 'chat-v2');
const leftovers = async () => (await readdir(folder(), { recursive: true })).filter((name) => name.endsWith('.part'));

describe('vaani pull: pinned revisions', () => {
  it('pulls the catalogue default at the commit it names: every file URL carries it, the manifest records it', async () => {
    await fresh();
    const revision = sourceOf('chat-v2')!.revision!;
    expect(revision).toMatch(/^[0-9a-f]{40}$/);
    const manifest = await pull(await plan('chat-v2'), options());
    expect(fileRequests().length).toBe(4);
    for (const request of fileRequests()) expect(request.path).toContain(`/${DEFAULT_REPO}/resolve/${revision}/`);
    expect(manifest.source.revision).toBe(revision);
  });

  it('pulls a branch at the commit its first answer names (X-Repo-Commit) and records that commit', async () => {
    await fresh();
    const manifest = await pull(await plan(`chat-v2=${REPO}`), options());
    const [first, ...rest] = fileRequests();
    expect(first!.path).toContain(`/${REPO}/resolve/main/`);
    for (const request of rest) expect(request.path).toContain(`/${REPO}/resolve/${commitOf(REPO)}/`);
    expect(manifest.source.revision).toBe(commitOf(REPO));
  });
});

describe('vaani pull: sizes and SHA-256 from the hub headers', () => {
  it('refuses a file with the right size and the wrong bytes, keeps nothing of it, and pulls the good file next', async () => {
    await fresh();
    const wrong = files[GRAPH].slice();
    wrong[wrong.length - 10]! ^= 0xff;
    hub.tamper(REPO, GRAPH, wrong);
    const error = await pull(await plan(`chat-v2=${REPO}`), options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PullError);
    expect(String(error)).toContain(`has SHA-256 ${sha(wrong)}, the hub lists ${sha(files[GRAPH])}`);
    await expect(stat(join(folder(), GRAPH))).rejects.toThrow();
    expect(await leftovers()).toEqual([]);
    await expect(stat(join(folder(), FOLDER_MANIFEST))).rejects.toThrow();

    hub.tamper(REPO, GRAPH, undefined);
    const manifest = await pull(await plan(`chat-v2=${REPO}`), options());
    expect(manifest.files.find((f) => f.name === GRAPH)!.sha256).toBe(sha(files[GRAPH]));
  });

  it('refuses a file of the wrong size by its Content-Length before keeping any of it', async () => {
    await fresh();
    const longer = new Uint8Array(files[GRAPH].byteLength + 7);
    longer.set(files[GRAPH]);
    hub.tamper(REPO, GRAPH, longer);
    const error = await pull(await plan(`chat-v2=${REPO}`), options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PullError);
    expect(String(error)).toContain(
      `is ${longer.byteLength} bytes by its Content-Length, the hub lists ${files[GRAPH].byteLength}`,
    );
    expect(hub.requests.filter((r) => r.path.endsWith(GRAPH))).toHaveLength(1);
    await expect(stat(join(folder(), GRAPH))).rejects.toThrow();
    expect(await leftovers()).toEqual([]);
  });
});

describe('vaani pull: trust on first use where the hub sends no headers', () => {
  it('records the SHA-256 of each file on the first pull, refuses a changed file on the next, keeps the folder as it was', async () => {
    await fresh();
    hub.options.headers = false;
    const first = await pull(await plan(`chat-v2=${REPO}`), options());
    expect(first.source.revision).toBe('main');
    const config = files['config.json'];
    expect(first.files.find((f) => f.name === 'config.json')).toEqual({
      name: 'config.json',
      size: config.byteLength,
      sha256: sha(config),
    });

    // Upstream changes config.json (same size); the local copy is gone, so it is fetched again.
    const changed = text({ model_type: 'qwen9' });
    expect(changed.byteLength).toBe(config.byteLength);
    hub.tamper(REPO, 'config.json', changed);
    await rm(join(folder(), 'config.json'));
    const error = await pull(await plan(`chat-v2=${REPO}`), options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PullError);
    expect(String(error)).toContain(
      `has SHA-256 ${sha(changed)}, the folder's vaani-manifest.json recorded at the first pull (trust-on-first-use) ${sha(config)}`,
    );
    await expect(stat(join(folder(), 'config.json'))).rejects.toThrow();
    expect(await leftovers()).toEqual([]);
    const kept = parseFolderManifest(await readFile(join(folder(), FOLDER_MANIFEST), 'utf8'), 'manifest');
    expect(kept).toEqual(first);

    // The file as first pulled is taken again.
    hub.tamper(REPO, 'config.json', undefined);
    await pull(await plan(`chat-v2=${REPO}`), options());
    expect(new Uint8Array(await readFile(join(folder(), 'config.json')))).toEqual(config);
  });
});
