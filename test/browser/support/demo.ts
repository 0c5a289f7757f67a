import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page } from '@playwright/test';
import { createServer } from 'vite';

const root = process.cwd();

/**
 * `npm run demo`'s server on a free port, serving `modelsDir` at /models/ (made afresh: one symlink
 * per model id). No file watching or hot reload: a source file saved mid-test must not reload the page.
 */
export async function startDemo(modelsDir: string, models: Record<string, string>) {
  rmSync(modelsDir, { recursive: true, force: true });
  mkdirSync(modelsDir, { recursive: true });
  for (const [id, dir] of Object.entries(models)) symlinkSync(dir, join(modelsDir, id));
  process.env.VAANI_MODELS_DIR = modelsDir;
  const server = await createServer({
    configFile: join(root, 'vite.demo.config.ts'),
    server: { port: 0, strictPort: false, hmr: false, watch: null },
    logLevel: 'warn',
  });
  await server.listen();
  return { origin: server.resolvedUrls!.local[0]!.replace(/\/$/, ''), close: () => server.close() };
}

/** Opens the demo with its files from the local folder and WASM, collecting uncaught page errors. */
export async function openDemo(page: Page, origin: string, errors: string[]) {
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${origin}/#settings`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
  await page.selectOption('#settings-modelFiles', 'folder');
  await page.selectOption('#settings-backend', 'wasm');
  await page.fill('#settings-folder', '/models/');
  await page.click('#settings-form button:not([type])');
  await expect(page.locator('#settings-status')).toContainText('local folder /models/');
  await expect(page.locator('#source')).toContainText('chat-v2');
}
