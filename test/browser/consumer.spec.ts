import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { readQuickStart, readTarballInstall } from './support/consumer-project';

/**
 * A new project in a temp folder follows the README's quick start as written — its shell lines and
 * files, read from README.md — with the packed library (`npm pack` of this checkout's dist/), and
 * runs in Chromium: built (`vite build` + `vite preview`) and in the dev server, with no console
 * error or warning.
 */
const root = process.cwd();
const fixture = resolve(root, '../shared/fixtures/tiny-random-llama-fp16-genai');
const viteVersion = (
  JSON.parse(execFileSync('npm', ['pkg', 'get', 'devDependencies.vite'], { cwd: root, encoding: 'utf8' })) as string
).replace(/^\^/, '');
/** What the page shows when the request failed instead of the model's (random-weight) words. */
const NOT_AN_ANSWER = /could not be loaded|vaani pull|No files are known|^Thinking…$|engine (crashed|stopped)/;
let app: string;
let buildLog: string;

// A machine with no GPU: 'auto' picks WASM (the software WebGPU adapter the other specs enable is 30–70× slower).
test.use({ launchOptions: { executablePath: '/usr/bin/chromium', args: [] } });

const run = (command: string, args: string[], cwd: string) =>
  execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });

async function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** Starts `npx vite <command>` in the app on a free port; resolves once it answers. */
async function startVite(command: 'dev' | 'preview'): Promise<{ origin: string; process: ChildProcess }> {
  const port = await freePort();
  const args = [
    'vite',
    ...(command === 'preview' ? ['preview'] : []),
    '--port',
    String(port),
    '--strictPort',
    '--host',
    '127.0.0.1',
  ];
  const child = spawn('npx', args, { cwd: app, stdio: 'ignore', detached: true });
  const origin = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(origin).then(
        (r) => r.ok,
        () => false,
      )
    )
      return { origin, process: child };
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`vite ${command} did not start`);
}

const stop = (child: ChildProcess) => child.pid && process.kill(-child.pid);

test.beforeAll(async () => {
  test.setTimeout(240_000);
  if (!existsSync(join(root, 'dist/vaani.js'))) throw new Error('dist/ is missing: run `npm run build` first.');
  app = mkdtempSync(join(tmpdir(), 'vaani-consumer-'));
  // The README's way before vaani is on npm: the tarball `npm pack` makes (dist/ is built already), installed.
  const tarballInstall = readTarballInstall(join(root, 'README.md'));
  expect(tarballInstall.make.at(-1)).toMatch(/&& npm pack$/);
  run('npm', ['pack', '--pack-destination', app], root);
  const tarball = readdirSync(app).find((file) => file.endsWith('.tgz'))!;
  const [, , named, ...rest] = tarballInstall.install.split(' ');
  expect(basename(named!)).toBe(tarball);
  const quickStart = readQuickStart(join(root, 'README.md'));
  for (const line of quickStart.shell) {
    if (line === 'npm install vaani vite')
      // The README's tarball line, with the tarball here, and the vite this checkout builds with (tests never reach the hub or a new vite).
      run(
        'npm',
        [
          'install',
          '--prefer-offline',
          '--no-audit',
          '--no-fund',
          `./${tarball}`,
          ...rest.map((name) => (name === 'vite' ? `vite@${viteVersion}` : name)),
        ],
        app,
      );
    else if (line === 'npx vaani pull chat-v2 --to public/models')
      // The same layout vaani pull writes, from a fixture: no hub here.
      cpSync(fixture, join(app, 'public/models/chat-v2'), { recursive: true });
    else run('sh', ['-c', line], app);
  }
  for (const [file, text] of Object.entries(quickStart.files)) writeFileSync(join(app, file), text);
  const build = spawnSync('npx', ['vite', 'build'], { cwd: app, encoding: 'utf8' });
  // npm's own notice about this machine's user config is not the app's.
  buildLog = `${build.stdout}${build.stderr}`.replace(/^npm warn Unknown (user|env) config.*$/gm, '');
  if (build.status !== 0) throw new Error(`vite build failed:\n${buildLog}`);
});

test.afterAll(() => {
  if (app) rmSync(app, { recursive: true, force: true });
});

/** Opens the app and waits for its answer; every page error and console error or warning on the way. */
async function answer(page: Page, origin: string, path = '/') {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      errors.push(`${message.type()}: ${message.text()} ${message.location().url}`);
  });
  await page.goto(`${origin}${path}`);
  await expect(page.locator('#answer')).not.toHaveText('Thinking…', { timeout: 60_000 });
  return { text: await page.locator('#answer').textContent(), errors };
}

test('the packed library, built into an app with vite, answers chat in the browser', async ({ page }) => {
  // vite says nothing it would want fixed (its warnings start with "(!)" or name a warning).
  expect(buildLog).not.toMatch(/\(!\)|warn/i);
  const built = readdirSync(join(app, 'dist/assets'));
  expect(built.some((file) => /^chat\.worker-.*\.js$/.test(file))).toBe(true);
  // onnxruntime-web's .wasm travels gzipped, as the package ships it; the raw builds are not copied.
  // The resampler's and Sonic's small .wasm are files (a strict CSP's connect-src refuses data: URLs).
  expect(built.some((file) => /^ort-wasm-simd-threaded.*\.gz$/.test(file))).toBe(true);
  expect(built.filter((file) => file.endsWith('.wasm')).map((file) => file.replace(/-.*/, ''))).toEqual([
    'sonic',
    'speex',
  ]);
  const preview = await startVite('preview');
  try {
    const result = await answer(page, preview.origin);
    expect(result.errors).toEqual([]);
    expect(result.text!.length).toBeGreaterThan(0);
    // The model's answer, not an error message in its place.
    expect(result.text).not.toMatch(NOT_AN_ANSWER);
    // The script-tag page, served as a static file beside the app.
    const tag = await answer(page, preview.origin, '/script.html');
    expect(tag.errors).toEqual([]);
    expect(tag.text!.length).toBeGreaterThan(0);
    expect(tag.text).not.toMatch(NOT_AN_ANSWER);
  } finally {
    stop(preview.process);
  }
});

test('the same app runs in the vite dev server', async ({ page }) => {
  const dev = await startVite('dev');
  try {
    const result = await answer(page, dev.origin);
    expect(result.errors).toEqual([]);
    expect(result.text!.length).toBeGreaterThan(0);
    expect(result.text).not.toMatch(NOT_AN_ANSWER);
  } finally {
    stop(dev.process);
  }
});

test('the package installs alone: no runtime dependencies, no reference to a source map it leaves out', () => {
  const installed = join(app, 'node_modules/vaani');
  const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
  expect(manifest.dependencies ?? {}).toEqual({});
  const bundles = [
    ...['vaani.js', 'widgets.js', 'vaani.iife.js', 'vaani-sw.js'].map((file) => join(installed, 'dist', file)),
    ...readdirSync(join(installed, 'dist/assets'))
      .filter((file) => file.endsWith('.js'))
      .map((file) => join(installed, 'dist/assets', file)),
  ];
  for (const file of bundles) expect(readFileSync(file, 'utf8'), file).not.toMatch(/sourceMappingURL=/);
  // The README's install weight: 27 MB on disk, onnxruntime-web's .wasm gzipped.
  expect(bytesUnder(installed) / 1e6).toBeLessThan(30);
});

test('`vaani/sw` resolves to the Service Worker script, one file that imports nothing; `vaani` serves it', () => {
  const resolved = spawnSync('node', ['--input-type=module', '-e', "console.log(import.meta.resolve('vaani/sw'))"], {
    cwd: app,
    encoding: 'utf8',
  });
  expect(resolved.stderr).toBe('');
  const file = new URL(resolved.stdout.trim()).pathname;
  expect(file).toBe(join(app, 'node_modules/vaani/dist/vaani-sw.js'));
  const script = readFileSync(file, 'utf8');
  expect(script).toContain('addEventListener("fetch"');
  expect(script).not.toMatch(/^\s*(import|export)\b/m);
  const types = readFileSync(join(app, 'node_modules/vaani/dist/types/index.d.ts'), 'utf8');
  expect(types).toMatch(/export \{ serveServiceWorker \}/);
});

test('the packed CLI runs in the app: `npx vaani ls` lists the model and says once that the hub is out of reach', async () => {
  const host = `http://127.0.0.1:${await freePort()}`;
  const listed = spawnSync('npx', ['vaani', 'ls', 'chat-v2', '--to', 'public/models', '--host', host], {
    cwd: app,
    encoding: 'utf8',
  });
  expect(listed.status).toBe(0);
  expect(listed.stdout).toMatch(/^SIZE\s+MODEL\s+STATE\s+SOURCE\n\?\s+chat-v2\s+not pulled\s+/);
  expect(listed.stderr.match(/Could not reach/g)).toHaveLength(1);
  expect(listed.stderr).toContain('copied to public/models/chat-v2/');
});

test('`vaani/ai-sdk` from the tarball, with the AI SDK beside it: generateText goes through the page’s fetch', () => {
  const versionOf = (name: string) =>
    (
      JSON.parse(
        execFileSync('npm', ['pkg', 'get', `devDependencies.${name}`], { cwd: root, encoding: 'utf8' }),
      ) as string
    ).replace(/^\^/, '');
  // The versions this checkout tests with, from npm's cache where it has them.
  const packages = ['ai', '@ai-sdk/openai', '@ai-sdk/openai-compatible'].map((name) => `${name}@${versionOf(name)}`);
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...packages], app);
  const script = `
    import { createVaaniProvider } from 'vaani/ai-sdk';
    import { generateText } from 'ai';
    const asked = [];
    const ai = {
      baseURL: 'https://page.test/v1',
      fetch: async (url, init) => {
        asked.push([String(url), JSON.parse(init.body).model]);
        return Response.json({
          id: 'chatcmpl-1', object: 'chat.completion', created: 0, model: 'chat-v2',
          choices: [{ index: 0, message: { role: 'assistant', content: 'नमस्ते' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        });
      },
    };
    const { text } = await generateText({ model: createVaaniProvider(ai)('chat-v2'), prompt: 'hi' });
    console.log(JSON.stringify({ text, asked }));`;
  const ran = spawnSync('node', ['--input-type=module', '-e', script], { cwd: app, encoding: 'utf8' });
  expect(ran.stderr).toBe('');
  expect(JSON.parse(ran.stdout)).toEqual({
    text: 'नमस्ते',
    asked: [['https://page.test/v1/chat/completions', 'chat-v2']],
  });
  const types = readFileSync(join(app, 'node_modules/vaani/dist/types/ai-sdk/index.d.ts'), 'utf8');
  expect(types).toMatch(/export declare function createVaaniProvider/);
});

const bytesUnder = (dir: string): number =>
  readdirSync(dir, { withFileTypes: true }).reduce(
    (sum, entry) =>
      sum + (entry.isDirectory() ? bytesUnder(join(dir, entry.name)) : statSync(join(dir, entry.name)).size),
    0,
  );
