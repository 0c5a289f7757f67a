import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { PullError } from '../../../src/cli/download';
import { main } from '../../../src/cli/main';
import { parseTarget, planPull } from '../../../src/cli/plan';
import { pull, snippet } from '../../../src/cli/pull';
import { formatBytes } from '../../../src/common/weights';
import { FOLDER_MANIFEST, parseFolderManifest } from '../../../src/common/weights';
import { sourceOf } from '../../../src/catalogue/families';
import { commitOf, cutAfter, onnxLike, startHub, type HubScript } from '../../support/hub-server';

const text = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const REPO = 'test-org/tiny-chat';
const files = {
  'tokenizer.json': text({ model: { type: 'BPE', vocab: {} } }),
  'tokenizer_config.json': text({ chat_template: '{{ messages }}' }),
  'config.json': text({ model_type: 'qwen3' }),
  'README.md': new TextEncoder().encode('# not read by the engine'),
  'onnx/model_quantized.onnx': onnxLike(300_000, 1),
  'onnx/model_q4.onnx': onnxLike(200_000, 2),
  'onnx/model_fp16.onnx': onnxLike(5_000, 3),
  'onnx/model_fp16.onnx_data': onnxLike(90_000, 4),
};
const WHISPER = 'test-org/tiny-whisper';
const whisper = {
  'config.json': text({}),
  'tokenizer.json': text({}),
  'tokenizer_config.json': text({}),
  'preprocessor_config.json': text({}),
  'onnx/encoder_model_quantized.onnx': onnxLike(4_000, 5),
  'onnx/decoder_model_merged_quantized.onnx': onnxLike(6_000, 6),
  'onnx/encoder_model.onnx': onnxLike(8_000, 7),
  'onnx/decoder_model_merged.onnx': onnxLike(9_000, 8),
};
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let script: HubScript | undefined;
let hub: Awaited<ReturnType<typeof startHub>>;
let to: string;
const quiet = { write: () => true, isTTY: false } as unknown as NodeJS.WriteStream;

beforeAll(async () => {
  hub = await startHub(
    { [REPO]: files, [WHISPER]: whisper, 'onnx-community/Qwen3-0.6B-ONNX': files },
    (req, res, count) => script?.(req, res, count) ?? false,
    { commits: { 'onnx-community/Qwen3-0.6B-ONNX': sourceOf('chat-v2')!.revision! } },
  );
});
afterAll(() => hub.close());
afterEach(async () => {
  script = undefined;
  hub.requests.length = 0;
  if (to) await rm(to, { recursive: true, force: true });
});
const fresh = async () => (to = await mkdtemp(join(tmpdir(), 'vaani-pull-')));
const target = (arg: string) => parseTarget(arg, hub.url);
const options = () => ({ to, log: quiet, backoffMs: 10 });

describe('vaani pull', () => {
  it('fetches exactly the files the chat engine reads for the first WASM dtype, with a manifest of sizes and SHA-256', async () => {
    await fresh();
    const plan = await planPull(target(`chat-v2=${REPO}`));
    expect(plan.dtypes).toEqual(['q8']);
    expect(plan.files.map((f) => f.path).sort()).toEqual(
      ['config.json', 'onnx/model_quantized.onnx', 'tokenizer.json', 'tokenizer_config.json'].sort(),
    );
    const manifest = await pull(plan, options());
    const written = parseFolderManifest(await readFile(join(to, 'chat-v2', FOLDER_MANIFEST), 'utf8'), 'manifest');
    expect(written).toEqual(manifest);
    expect(written.source).toEqual({ host: hub.url, repo: REPO, revision: commitOf(REPO) });
    for (const file of written.files) {
      const bytes = files[file.name as keyof typeof files];
      expect(file).toEqual({ name: file.name, size: bytes.byteLength, sha256: sha(bytes) });
      expect(new Uint8Array(await readFile(join(to, 'chat-v2', file.name)))).toEqual(bytes);
    }
    expect(hub.requests.some((r) => r.path.includes('model_q4') || r.path.includes('README'))).toBe(false);
    expect(snippet([plan], 'public/models')).toBe(
      `createVaani({ models: { 'chat-v2': { baseURL: '/models/chat-v2/' } } });`,
    );
  });

  it('takes several dtypes, external data included, and keeps an earlier pull of the same repo in the manifest', async () => {
    await fresh();
    await pull(await planPull(target(`chat-v2=${REPO}`)), options());
    hub.requests.length = 0;
    const plan = await planPull(target(`chat-v2=${REPO}`), ['fp16', 'q4']);
    expect(plan.files.map((f) => f.path)).toEqual(
      expect.arrayContaining(['onnx/model_fp16.onnx', 'onnx/model_fp16.onnx_data', 'onnx/model_q4.onnx']),
    );
    const manifest = await pull(plan, options());
    expect(manifest.dtypes).toEqual(['q8', 'fp16', 'q4']);
    expect(manifest.files.map((f) => f.name)).toContain('onnx/model_quantized.onnx');
    expect(hub.requests.filter((r) => r.path.endsWith('tokenizer.json'))).toHaveLength(0);
  });

  it('resumes a cut connection with a Range request and ends with the whole file', async () => {
    await fresh();
    const graph = files['onnx/model_quantized.onnx'];
    let cut = 0;
    script = (req, res) => {
      if (!req.path.endsWith('model_quantized.onnx') || req.range || cut++) return false;
      cutAfter(res, graph, 120_000);
      return true;
    };
    const manifest = await pull(await planPull(target(`chat-v2=${REPO}`)), options());
    const ranges = hub.requests.filter((r) => r.path.endsWith('model_quantized.onnx')).map((r) => r.range);
    expect(ranges[0]).toBeUndefined();
    expect(ranges[1]).toMatch(/^bytes=\d+-$/);
    expect(Number(ranges[1]!.slice(6, -1))).toBeGreaterThan(0);
    expect(new Uint8Array(await readFile(join(to, 'chat-v2', 'onnx/model_quantized.onnx')))).toEqual(graph);
    expect(manifest.files.find((f) => f.name.endsWith('model_quantized.onnx'))!.sha256).toBe(sha(graph));
    expect((await readdir(join(to, 'chat-v2', 'onnx'))).some((name) => name.endsWith('.part'))).toBe(false);
  });

  it('retries a 503, then refuses an HTML error page, keeping nothing of it and writing no manifest', async () => {
    await fresh();
    script = (req, res) => {
      if (!req.path.endsWith('tokenizer.json')) return false;
      const first = hub.requests.filter((r) => r.path.endsWith('tokenizer.json')).length === 1;
      res.writeHead(first ? 503 : 200, { 'content-type': 'text/html' });
      res.end('<!doctype html><html><body>Rate limited. Sign in.</body></html>');
      return true;
    };
    const error = await pull(await planPull(target(`chat-v2=${REPO}`)), options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PullError);
    expect(String(error)).toMatch(/tokenizer\.json .* is not the file: the server sent an HTML page/);
    expect(hub.requests.filter((r) => r.path.endsWith('tokenizer.json'))).toHaveLength(2);
    await expect(stat(join(to, 'chat-v2', 'tokenizer.json'))).rejects.toThrow();
    await expect(stat(join(to, 'chat-v2', 'tokenizer.json.part'))).rejects.toThrow();
    await expect(stat(join(to, 'chat-v2', FOLDER_MANIFEST))).rejects.toThrow();
  });

  it('deletes a file whose SHA-256 is not the one the hub lists', async () => {
    await fresh();
    const graph = files['onnx/model_quantized.onnx'];
    script = (req, res) => {
      if (!req.path.endsWith('model_quantized.onnx')) return false;
      const wrong = graph.slice();
      wrong[wrong.length - 1]! ^= 0xff;
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': wrong.byteLength });
      res.end(wrong);
      return true;
    };
    await expect(pull(await planPull(target(`chat-v2=${REPO}`)), options())).rejects.toThrow(
      /SHA-256 .* the hub lists/,
    );
    await expect(stat(join(to, 'chat-v2', 'onnx/model_quantized.onnx'))).rejects.toThrow();
  });

  it('gives up after its retries on a dead connection, keeping the part for the next run to resume', async () => {
    await fresh();
    const graph = files['onnx/model_quantized.onnx'];
    script = (req, res) => {
      if (!req.path.endsWith('model_quantized.onnx')) return false;
      if (req.range) res.destroy();
      else cutAfter(res, graph, 50_000);
      return true;
    };
    await expect(pull(await planPull(target(`chat-v2=${REPO}`)), { ...options(), retries: 2 })).rejects.toThrow(
      /after 3 attempts.*run the command again to resume/,
    );
    const part = await stat(join(to, 'chat-v2', 'onnx/model_quantized.onnx.part'));
    expect(part.size).toBeGreaterThan(0);
    script = undefined;
    hub.requests.length = 0;
    await pull(await planPull(target(`chat-v2=${REPO}`)), options());
    const graphRequests = hub.requests.filter((r) => r.path.endsWith('model_quantized.onnx'));
    expect(graphRequests.map((r) => r.range)).toEqual([`bytes=${part.size}-`]);
    expect(new Uint8Array(await readFile(join(to, 'chat-v2', 'onnx/model_quantized.onnx')))).toEqual(graph);
  });

  it("lists Whisper's encoder and merged decoder per dtype, and guesses the layout of a bare repo", async () => {
    const plan = await planPull(target(WHISPER));
    expect(plan.layout).toBe('whisper');
    expect(plan.key).toBe('speech-stt-v1');
    expect(plan.id).toBe('tiny-whisper');
    expect(plan.files.map((f) => f.path)).toContain('onnx/decoder_model_merged_quantized.onnx');
    expect(plan.files.map((f) => f.path)).not.toContain('onnx/encoder_model.onnx');
  });

  it("lists an embedding model's graph, tokenizer and sentence-transformers files, not what it does not read", async () => {
    const plan = await planPull(target(`embed-v1=${REPO}`));
    expect(plan.layout).toBe('embeddings');
    expect(plan.files.map((f) => f.path).sort()).toEqual(
      ['config.json', 'onnx/model_quantized.onnx', 'tokenizer.json', 'tokenizer_config.json'].sort(),
    );
  });

  it('says what is wrong for an unknown id, a missing repo and a dtype the repo lacks', async () => {
    expect(() => target('chat-v9')).toThrow(/Unknown model 'chat-v9': use one of chat-v2, chat-v2-pro/);
    await expect(planPull(target('chat-v2=test-org/none'))).rejects.toThrow(/no such repo or revision/);
    await expect(planPull(target(`chat-v2=${REPO}`), ['q4f16'])).rejects.toThrow(
      /cannot be pulled: q4f16: .*no ONNX decoder for dtype q4f16.*\)\.$/,
    );
  });
});

describe('vaani ls and the command line', () => {
  const run = async (args: string[]) => {
    const out: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
    const errSpy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (out.push(String(chunk)), true));
    try {
      return { code: await main(args), out: out.join('') };
    } finally {
      spy.mockRestore();
      errSpy.mockRestore();
    }
  };

  it('pull prints the createVaani line; ls shows sizes first, pulled or not, and a damaged folder', async () => {
    await fresh();
    const pulled = await run(['pull', `chat-v2=${REPO}`, '--to', join(to, 'public/models'), '--host', hub.url]);
    expect(pulled.code).toBe(0);
    expect(pulled.out).toContain(`createVaani({ models: { 'chat-v2': { baseURL: '/models/chat-v2/' } } });`);
    const bytes = ['config.json', 'onnx/model_quantized.onnx', 'tokenizer.json', 'tokenizer_config.json']
      .map((name) => files[name as keyof typeof files].byteLength)
      .reduce((a, b) => a + b);
    const args = ['--to', join(to, 'public/models'), '--host', hub.url];
    const listed = await run(['ls', `chat-v2=${REPO}`, `speech-stt-v1=${WHISPER}`, ...args]);
    const lines = listed.out.trim().split('\n');
    expect(lines[0]).toMatch(/^SIZE\s+MODEL\s+STATE\s+SOURCE$/);
    expect(lines[1]).toMatch(
      new RegExp(
        `^${formatBytes(bytes).replace('.', '\\.')}\\s+chat-v2\\s+pulled \\(q8\\)\\s+${REPO}@${commitOf(REPO)}$`,
      ),
    );
    expect(lines[2]).toMatch(/^\d[\d.]* KB\s+speech-stt-v1\s+not pulled \(q8\)\s+test-org\/tiny-whisper$/);
    await rm(join(to, 'public/models/chat-v2/tokenizer.json'));
    expect((await run(['ls', `chat-v2=${REPO}`, ...args])).out).toContain('incomplete: tokenizer.json missing');
  });

  it("agent-v1 reads chat-v2's folder: pulling it pulls chat-v2 once, ls says so; agent-v1=repo gets its own", async () => {
    await fresh();
    const models = join(to, 'public/models');
    const args = ['--to', models, '--host', hub.url];
    const pulled = await run(['pull', 'agent-v1', ...args]);
    expect(pulled.code).toBe(0);
    expect(pulled.out).toContain("agent-v1 reads chat-v2's files (the same model): pulling chat-v2.");
    expect(pulled.out).toContain(`createVaani({ models: { 'chat-v2': { baseURL: '/models/chat-v2/' } } });`);
    expect(await readdir(models)).toEqual(['chat-v2']);
    const listed = (await run(['ls', 'chat-v2', 'agent-v1', ...args])).out.trim().split('\n');
    // The catalogue pins chat-v2's repo to a commit: pulled from it, listed with it.
    expect(listed[1]).toMatch(
      new RegExp(`\\schat-v2\\s+pulled \\(q8\\)\\s+onnx-community/Qwen3-0\\.6B-ONNX@${sourceOf('chat-v2')!.revision}$`),
    );
    expect(listed[2]).toMatch(new RegExp(`^-\\s+agent-v1\\s+reads chat-v2's files\\s+${models}/chat-v2/$`));
    expect(parseTarget(`agent-v1=${REPO}`, hub.url)).toMatchObject({ id: 'agent-v1', repo: { repo: REPO } });
  });

  it('exits 2 with the help on bad arguments and 1 with the reason on failure', async () => {
    expect((await run(['frobnicate'])).code).toBe(2);
    expect((await run(['pull', '--nope'])).code).toBe(2);
    const failed = await run(['pull', 'chat-v2=test-org/none', '--to', tmpdir(), '--host', hub.url]);
    expect(failed.code).toBe(1);
    expect(failed.out).toMatch(/vaani pull: Could not list test-org\/none@main .*no such repo or revision/);
  });

  it('names the ways out once when the hub cannot be reached: a mirror, a copied folder, an import', async () => {
    await fresh();
    const host = await closedHost();
    const pulled = await run(['pull', 'chat-v2', '--to', join(to, 'models'), '--host', host]);
    expect(pulled.code).toBe(1);
    expect(pulled.out).toContain(`vaani pull: Could not reach ${host} (`);
    expect(pulled.out).toContain('--host <url>, or set HF_ENDPOINT=<url>');
    expect(pulled.out).toContain(`copied to ${join(to, 'models', 'chat-v2')}/`);
    expect(pulled.out).toContain('ai.models.import(id, files)');
    expect(pulled.out).not.toContain('fetch failed');
    // ls asks the host once and says so once, under every model's row.
    hub.requests.length = 0;
    const listed = await run(['ls', '--to', join(to, 'models'), '--host', host]);
    expect(listed.code).toBe(0);
    expect(listed.out.match(/Could not reach/g)).toHaveLength(1);
    expect(listed.out.match(/HF_ENDPOINT/g)).toHaveLength(1);
    expect(listed.out).toMatch(/^\?\s+chat-v2\s+not pulled\s+onnx-community\//m);
    expect(listed.out).toMatch(/^\?\s+mms-tts-hin\s+not pulled/m);
  });
});

/** A loopback address where nothing listens: connections are refused at once. */
async function closedHost(): Promise<string> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return `http://127.0.0.1:${port}`;
}
