import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { openDemo, startDemo } from './support/demo';

/**
 * The demo on a first run: a models folder with only the upstream chat export, as a new user has
 * it (no hub, no other model). What it says must be true: what is missing, what failed, what is
 * cached, and where files go. Screenshots in test-results/.
 */
const root = process.cwd();
const FOLDER = 'test/.fixtures/demo-truth-models';
const upstream = resolve(root, '../shared/fixtures/tiny-random-llama-fp16-genai');
let server: Awaited<ReturnType<typeof startDemo>> | undefined;
let origin: string;

test.beforeAll(async () => {
  server = await startDemo(join(root, FOLDER), { 'chat-v2': upstream });
  origin = server.origin;
});

test.afterAll(async () => {
  await server?.close();
});

/** The demo with its files from the folder from the first load (the default probes the hub first: an error offline). */
async function open(page: Page, errors: string[]) {
  await page.addInitScript(() =>
    localStorage.setItem(
      'vaani-demo-settings',
      JSON.stringify({ modelFiles: 'folder', folder: '/models/', backend: 'wasm' }),
    ),
  );
  await openDemo(page, origin, errors);
}

/** Every console error from now on (a failed load is one). */
function consoleErrors(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') seen.push(message.text());
  });
  return seen;
}

async function chat(page: Page, text: string, maxTokens: number) {
  await page.fill('#chat-max-tokens', String(maxTokens));
  await page.fill('#chat-input', text);
  await page.press('#chat-input', 'Enter');
  await expect(page.locator('#chat-send')).toBeEnabled({ timeout: 60_000 });
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

test('Models offers only what it can fetch, names the folder it serves, and agrees with the picker, the cache and the Images tab', async ({
  page,
}) => {
  const errors: string[] = [];
  const logged = consoleErrors(page);
  await open(page, errors);
  await page.click('nav a[href="#models"]');
  const status = page.locator('#models-status');
  await expect(status).toHaveText(/^\d+ models\.$/);
  // The footer counts the rows.
  await expect(status).toHaveText(`${await page.locator('#models-body tr').count()} models.`);
  // A model the folder lacks: no Download (nothing would answer it), and the line that puts it in the folder served.
  for (const id of ['chat-v2-pro', 'embed-v1', 'kokoro-82m', 'image-v1']) {
    const row = page.locator(`tr[data-model="${id}"]`);
    await expect(row.locator('.cache')).toHaveText(
      `not in the folder: npx vaani pull ${id} --to ${FOLDER}, or import a folder below`,
    );
    await expect(row.getByRole('button', { name: 'Download' })).toBeHidden();
  }
  await expect(page.locator('tr[data-model="chat-v2"]').getByRole('button', { name: 'Download' })).toBeEnabled();
  // agent-v1 reads chat-v2's files: that row downloads and counts them.
  const agent = page.locator('tr[data-model="agent-v1"]');
  await expect(agent.locator('.cache')).toHaveText("reads chat-v2's files (its row)");
  await expect(agent.getByRole('button', { name: 'Download' })).toBeHidden();
  await shot(page, 'models-first-run');
  await page.click('nav a[href="#images"]');
  await expect(page.locator('#images-folder')).toHaveText(`${FOLDER}/image-v1/`);
  // Listing the models probed for no file the folder lacks.
  expect(logged).toEqual([]);

  // The picker says "in this browser" only where the files are.
  await page.click('nav a[href="#chat"]');
  const option = (id: string) => page.locator(`#chat-model option[value="${id}"]`);
  await expect(option('chat-v2')).toHaveText('chat-v2 (in this browser)');
  await expect(option('chat-v2-pro')).toHaveText('chat-v2-pro (no files here: see Models)');
  await page.click('nav a[href="#models"]');
  await page.selectOption('#models-import-id', 'chat-v2-pro');
  await page.setInputFiles('#models-import-folder', upstream);
  await expect(status).toContainText('chat-v2-pro: 6 files');
  await expect(option('chat-v2-pro')).toHaveText('chat-v2-pro (in this browser)');

  // The context column shows the loaded model's, once it has loaded.
  const context = page.locator('tr[data-model="chat-v2"] td').nth(2);
  await expect(context).toHaveText('64K remote · here once loaded');
  await page.click('nav a[href="#chat"]');
  await chat(page, 'Hello', 4);
  await expect(page.locator('#chat-status')).toContainText('tokens/s');
  await page.click('nav a[href="#models"]');
  await expect(context).toHaveText('2K here');
  // The chat cached every file the engine reads: the row says cached (not partial), with nothing left to download.
  const chatRow = page.locator('tr[data-model="chat-v2"]');
  await expect(chatRow.locator('.cache')).toHaveText(/^cached · \d/);
  await expect(chatRow.getByRole('button', { name: 'Download' })).toBeDisabled();

  // What the voices cached (the eSpeak plug-in) has a row: the cache line counts the rows that hold files.
  await page.click('nav a[href="#voice"]');
  await page.selectOption('#speech-language', 'hi-IN');
  await page.click('#speech-go');
  await expect(page.locator('#speech-status')).toContainText('Spoke', { timeout: 60_000 });
  await page.click('nav a[href="#models"]');
  await expect(page.locator('tr[data-model="espeak-ng"] .cache')).toHaveText(/^cached · \d/);
  const holding = page.locator('#models-body .cache', { hasText: /^(cached|imported|partial) · / });
  await expect(page.locator('#models-usage')).toContainText(`in ${await holding.count()} models`);
  expect(await holding.count()).toBe(3);
  await shot(page, 'models-cached');
  expect(errors).toEqual([]);
});

test('Data says a failed ingest failed', async ({ page }) => {
  const errors: string[] = [];
  await open(page, errors);
  await page.click('nav a[href="#data"]');
  // embed-v1 is not in the folder: the file cannot be embedded.
  await page.setInputFiles('#data-file', [
    { name: 'notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Notes\n\nचाय सुबह सात बजे।\n') },
  ]);
  await page.click('#data-upload-form button:not([type])');
  const status = page.locator('#data-status');
  await expect(status).toHaveAttribute('data-kind', 'error', { timeout: 60_000 });
  await expect(status).toContainText('1 of 1 file(s) failed (notes.md: ');
  await expect(page.locator('#data-files .failed')).toContainText('failed: ');
  await shot(page, 'data-failed');
  expect(errors).toEqual([]);
});

test('chat follows new messages and drops a stale speed; errors wrap; numbered logs show their numbers; Isolate and Change drop an old clip on failure', async ({
  page,
}) => {
  const errors: string[] = [];
  await open(page, errors);
  await page.click('nav a[href="#chat"]');
  await page.fill('#chat-temperature', '0');
  for (let i = 1; i <= 5; i++) await chat(page, `Question ${i}: name a river.`, 48);
  const log = page.locator('#chat-log');
  const gap = () => log.evaluate((box) => box.scrollHeight - box.clientHeight - box.scrollTop);
  expect(await log.evaluate((box) => box.scrollHeight > box.clientHeight)).toBe(true);
  expect(await gap()).toBeLessThan(2);
  await expect(page.locator('#chat-speed')).toHaveText(/^\d+(\.\d)? tok\/s$/);
  // A failed request (max_tokens 0 is a 400) leaves no figure from the one before.
  await chat(page, 'This one fails.', 0);
  await expect(page.locator('#chat-status')).toHaveAttribute('data-kind', 'error');
  await expect(page.locator('#chat-backend')).toHaveText('—');
  await expect(page.locator('#chat-speed')).toHaveText('— tok/s');
  expect(await gap()).toBeLessThan(2);

  // At phone width a long raw error wraps instead of widening the page.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('#chat-status').evaluate((status) => {
    status.textContent = `500 Internal error: failed to call OrtRun(). '/model/${'layers.0/attn/'.repeat(8)}Expand'`;
  });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // A Responses turn (agent-v1 reads chat-v2's files) is a numbered item whose number shows.
  await page.click('nav a[href="#agents"]');
  await page.fill('#responses-input', 'नमस्ते');
  await page.click('#responses-form button');
  await expect(page.locator('#responses-input')).toHaveValue('', { timeout: 60_000 });
  const item = page.locator('#responses-log li').first();
  const room = await item.evaluate((li) => {
    const list = li.parentElement!;
    const inside = li.getBoundingClientRect().left - list.getBoundingClientRect().left - list.clientLeft;
    return inside / parseFloat(getComputedStyle(li).fontSize);
  });
  expect(room).toBeGreaterThanOrEqual(1.5);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, 'errors-phone');

  // Isolate and Change: a clip, then one they refuse; the refused one leaves no clip of the one before.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.click('nav a[href="#voice"]');
  const source = (selector: string) => page.locator(selector).evaluate((p: HTMLAudioElement) => p.getAttribute('src'));
  await page.setInputFiles('#clip-file', resolve(root, '../shared/audio/jfk.flac'));
  await page.click('#isolate-go');
  await expect(page.locator('#isolate-status')).toContainText('Cleaned', { timeout: 60_000 });
  await page.click('#change-go');
  await expect(page.locator('#change-status')).toContainText('Done in', { timeout: 60_000 });
  expect(await source('#isolate-after')).toMatch(/^blob:/);
  expect(await source('#change-player')).toMatch(/^blob:/);
  await page.setInputFiles('#clip-file', {
    name: 'notes.wav',
    mimeType: 'audio/wav',
    buffer: Buffer.from('not audio'),
  });
  await page.click('#isolate-go');
  await expect(page.locator('#isolate-status')).toHaveAttribute('data-kind', 'error', { timeout: 30_000 });
  await expect(page.locator('#isolate-status')).toContainText('400');
  await page.click('#change-go');
  await expect(page.locator('#change-status')).toHaveAttribute('data-kind', 'error', { timeout: 30_000 });
  await expect(page.locator('#change-status')).toContainText('400');
  expect(await source('#isolate-after')).toBeNull();
  expect(await source('#change-player')).toBeNull();
  expect(errors).toEqual([]);
});

test('keyboard and screen readers: Import by keyboard, named players and meter, headed columns, the phone layout, the snippet in Devanagari', async ({
  page,
}) => {
  const errors: string[] = [];
  await open(page, errors);
  await page.click('nav a[href="#models"]');
  // Tab from the model picker reaches "Choose a folder…", and Enter opens the folder picker.
  const chooser = page.waitForEvent('filechooser');
  await page.focus('#models-import-id');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Choose a folder…' })).toBeFocused();
  await page.keyboard.press('Enter');
  expect(await (await chooser).element().getAttribute('id')).toBe('models-import-folder');
  for (const header of await page.locator('#tab-models th').all()) await expect(header).not.toHaveText('');

  await page.click('nav a[href="#voice"]');
  await expect(page.locator('#speech-player')).toHaveAccessibleName('Speech');
  await expect(page.locator('#clip-player')).toHaveAccessibleName('Your clip');
  await expect(page.locator('#change-player')).toHaveAccessibleName('Changed voice');
  await expect(page.locator('#clip-level')).toHaveAccessibleName('Microphone level');

  // At 390 px every column of a model is on screen: the table stacks, each cell headed by its column.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.click('nav a[href="#models"]');
  const row = page.locator('tr[data-model="chat-v2"]');
  await row.scrollIntoViewIfNeeded();
  for (const cell of [row.locator('td').nth(4), row.locator('.cache'), row.getByRole('button', { name: 'Download' })]) {
    const box = (await cell.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  }
  await row.screenshot({ path: test.info().outputPath('models-phone-row.png') });

  // The snippet's Devanagari is drawn by its Noto face, not as boxes in a monospace face that lacks it.
  await page.click('nav a[href="#widgets"]');
  const snippet = page.locator('pre.snippet code', { hasText: 'नमस्ते' }).first();
  await snippet.scrollIntoViewIfNeeded();
  await page.evaluate(() => document.fonts.ready);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('DOM.enable');
  await cdp.send('CSS.enable');
  const { root: documentNode } = await cdp.send('DOM.getDocument', { depth: -1 });
  const { nodeIds } = await cdp.send('DOM.querySelectorAll', {
    nodeId: documentNode.nodeId,
    selector: 'pre.snippet code',
  });
  const families = new Set<string>();
  for (const nodeId of nodeIds)
    for (const font of (await cdp.send('CSS.getPlatformFontsForNode', { nodeId })).fonts) families.add(font.familyName);
  expect([...families]).toContain('Noto Sans Devanagari');
  await snippet.screenshot({ path: test.info().outputPath('snippet.png') });
  expect(errors).toEqual([]);
});

test('with the Service Worker on, another tab’s plain fetch of /v1 is answered by the demo’s Vaani', async ({
  page,
  context,
}) => {
  const errors: string[] = [];
  await page.addInitScript(() =>
    localStorage.setItem(
      'vaani-demo-settings',
      JSON.stringify({ modelFiles: 'folder', folder: '/models/', backend: 'wasm', serviceWorker: 'on' }),
    ),
  );
  await openDemo(page, origin, errors);
  await expect(page.locator('#settings-serviceWorker')).toHaveValue('on');
  await expect(page.locator('#environment')).toContainText('Service Worker answers /v1 for this site');
  // A tab with no Vaani: its navigation and its fetch reach the demo tab through the worker.
  const other = await context.newPage();
  const navigation = await other.goto(`${origin}/v1/models`);
  expect(navigation?.headers()['content-type']).toContain('application/json');
  const ids = await other.evaluate(async () => {
    const response = await fetch('/v1/models', { headers: { authorization: 'Bearer demo' } });
    return ((await response.json()) as { data: { id: string }[] }).data.map((model) => model.id);
  });
  expect(ids).toContain('chat-v2');
  expect(errors).toEqual([]);
});
