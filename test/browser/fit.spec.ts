import { expect, test, type Page } from '@playwright/test';
import { FOLDER_MANIFEST } from '../../src/common/weights';
import type { DownloadConsent } from '../../src/protocol/fit';
import type { VaaniChat } from '../../src/widgets/index';
import { manifestFolder } from './support/manifest-folder';
import { openHarness } from './support/page';

/**
 * The download policy (`createVaani({ fit })`) on a metered device: no byte of a model is fetched
 * before consent, a declined download answers a clear error (or the remote) and is not asked again,
 * and the widgets ask with the size and time.
 */

let url: string;
let remove: () => Promise<void>;

test.beforeAll(async () => {
  ({ url, remove } = await manifestFolder('fit'));
});
test.afterAll(() => remove());

/** A metered phone: Save-Data on, 2 GB, a 10 Mbit/s 4G link (installed before the page's scripts). */
function meteredPhone() {
  const define = (name: string, value: unknown) =>
    Object.defineProperty(Navigator.prototype, name, { get: () => value, configurable: true });
  define('deviceMemory', 2);
  define('connection', { saveData: true, effectiveType: '4g', downlink: 10 });
  // Counts navigator.storage.persist() calls (the browser's own answer is kept).
  const persist = StorageManager.prototype.persist;
  (window as unknown as { persistCalls: number }).persistCalls = 0;
  StorageManager.prototype.persist = function () {
    (window as unknown as { persistCalls: number }).persistCalls++;
    return persist.call(this);
  };
}

/** Every request for the model folder's files (its manifest aside, which planning reads), and the hub's. */
async function watchModelFiles(page: Page) {
  const seen: string[] = [];
  page.context().on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith(url) && !path.endsWith(FOLDER_MANIFEST)) seen.push(path);
  });
  await page.context().route(/huggingface\.co/, (route) => {
    seen.push(route.request().url());
    return route.abort();
  });
  return seen;
}

interface Answered {
  status: number;
  engine: string | null;
  json: { error?: { code: string; message: string; param: string | null }; choices?: unknown[] };
}

declare global {
  interface Window {
    fit: {
      ai: import('../../src/index').Vaani;
      asked: DownloadConsent[];
      answer?: (yes: boolean) => void;
      ask(): Promise<Answered>;
    };
  }
}

/** A Vaani on the metered phone whose chat-v2 is the folder; `fit.confirm` waits for the test to answer. */
async function openMetered(page: Page, fit: Record<string, unknown>, remote?: string) {
  await page.addInitScript(meteredPhone);
  const errors = await openHarness(page);
  const seen = await watchModelFiles(page);
  await page.evaluate(
    ({ base, fit, remote, confirm }) => {
      const asked: DownloadConsent[] = [];
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: { 'chat-v2': { baseURL: base } },
        ...(remote ? { remote: { baseURL: remote, apiKey: 'r' } } : {}),
        fit: {
          ...fit,
          ...(confirm
            ? {
                confirm: (plan: DownloadConsent) =>
                  new Promise<boolean>((resolve) => {
                    asked.push(plan);
                    window.fit.answer = resolve;
                  }),
              }
            : {}),
        },
      });
      const ask = async () => {
        const response = await ai.fetch('/v1/chat/completions', {
          method: 'POST',
          headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
          body: JSON.stringify({
            model: 'chat-v2',
            messages: [{ role: 'user', content: 'नमस्ते' }],
            max_tokens: 4,
            temperature: 0,
          }),
        });
        return { status: response.status, engine: response.headers.get('x-vaani-engine'), json: await response.json() };
      };
      window.fit = { ai, asked, ask };
      return ai.models.clear();
    },
    { base: url, fit, remote, confirm: fit.confirm === true },
  );
  return { errors, seen };
}

test('metered phone: no model byte before confirm; declined → 503 download_declined, no byte, not asked again; reset and accept → answers', async ({
  page,
}) => {
  // The fixture is far under the default 100 MB, so the app's own ceiling stands in for it.
  const { errors, seen } = await openMetered(page, { maxDownloadBytes: 1000, confirm: true });
  await page.evaluate(() => {
    (window as unknown as { first: Promise<Answered> }).first = window.fit.ask();
  });
  await page.waitForFunction(() => window.fit.asked.length === 1);
  // The request waits on confirm: nothing of the model has been asked for.
  expect(seen).toEqual([]);
  const asked = await page.evaluate(() => window.fit.asked[0]!);
  expect(asked).toMatchObject({
    model: 'chat-v2',
    download: { cached_bytes: 0, exact: true, basis: 'manifest', seconds: 1 },
    network: { save_data: true },
    consent: { for: 'chat', why: ['ceiling', 'metered'], remote: false },
  });
  expect(asked.download.remaining_bytes).toBe(asked.download.bytes);
  expect(asked.download.bytes).toBeGreaterThan(1000);
  expect(asked.consent.reason).toMatch(/^chat-v2 needs .* over fit\.maxDownloadBytes \(1 kB\); Save-Data is on\.$/);

  const declined = await page.evaluate(async () => {
    window.fit.answer!(false);
    const first = await (window as unknown as { first: Promise<Answered> }).first;
    const again = await window.fit.ask();
    return { first, again, asked: window.fit.asked.length };
  });
  for (const answer of [declined.first, declined.again]) {
    expect(answer.status).toBe(503);
    expect(answer.json.error).toMatchObject({ code: 'download_declined', param: 'model' });
    expect(answer.json.error!.message).toMatch(
      /declined; it is not asked again in this page until ai\.plan\.reset\(\)/,
    );
  }
  expect(declined.asked, 'a declined download was asked again').toBe(1);
  expect(seen, 'a declined download fetched model files').toEqual([]);

  const accepted = await page.evaluate(async () => {
    window.fit.ai.plan.reset('chat');
    const pending = window.fit.ask();
    while (window.fit.asked.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    window.fit.answer!(true);
    const first = await pending;
    const again = await window.fit.ask();
    return { first, again, asked: window.fit.asked.length };
  });
  expect(accepted.first.status, JSON.stringify(accepted.first.json)).toBe(200);
  expect(accepted.first.engine).toBe('local');
  expect(accepted.again.status).toBe(200);
  expect(accepted.asked, 'an accepted download was asked again').toBe(2);
  expect(seen.length).toBeGreaterThan(0);

  // The large download asked navigator.storage.persist() once; then the browser evicts the files
  // (its storage cleared under the page, as eviction does): the plan says so and the next request
  // is planned and asked again rather than failing.
  const evicted = await page.evaluate(async () => {
    const persisted = await window.fit.ai.plan('chat-v2');
    const clear = (name: string, store: string) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open(name);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(store, 'readwrite');
          tx.objectStore(store).clear();
          tx.oncomplete = () => (open.result.close(), resolve());
          tx.onerror = () => reject(tx.error);
        };
      });
    await clear('vaani-weights', 'chunks');
    await clear('vaani-weights-index', 'entries');
    const after = await window.fit.ai.plan('chat-v2');
    const pending = window.fit.ask();
    while (window.fit.asked.length < 3) await new Promise((resolve) => setTimeout(resolve, 10));
    window.fit.answer!(true);
    const answer = await pending;
    const calls = (window as unknown as { persistCalls: number }).persistCalls;
    return { persisted, after, answer, calls, asked: window.fit.asked[2]! };
  });
  expect(evicted.calls, 'persist() once per page').toBe(1);
  expect(evicted.persisted.persist).toEqual({ asked: true, granted: expect.any(Boolean) });
  expect(evicted.persisted.download).toMatchObject({ remaining_bytes: 0, evicted_bytes: 0 });
  expect(evicted.after.download).toMatchObject({ cached_bytes: 0, evicted_bytes: evicted.persisted.download.bytes });
  expect(evicted.after.decision.reason).toMatch(/^evicted: the browser cleared .* of chat-v2's cached files/);
  expect(evicted.asked.download.remaining_bytes).toBe(evicted.persisted.download.bytes);
  expect(evicted.answer.status, JSON.stringify(evicted.answer.json)).toBe(200);
  expect(errors).toEqual([]);
});

test('metered phone, no confirm: the remote answers, and without one a clear error says how to consent; no byte fetched', async ({
  page,
}) => {
  await page.route('http://remote.test/v1/chat/completions', (route) =>
    route.fulfill({
      json: {
        id: 'r',
        object: 'chat.completion',
        created: 0,
        model: 'chat-v2',
        choices: [{ index: 0, message: { role: 'assistant', content: 'from the server' }, finish_reason: 'stop' }],
      },
    }),
  );
  const { errors, seen } = await openMetered(page, { maxDownloadBytes: 1000 }, 'http://remote.test/v1');
  const viaRemote = await page.evaluate(() => window.fit.ask());
  expect(viaRemote.status).toBe(200);
  expect(viaRemote.engine).toBe('remote');

  const alone = await page.evaluate(async (base) => {
    const ai = window.Vaani.createVaani({
      backend: 'wasm',
      models: { 'chat-v2': { baseURL: base } },
      fit: { maxDownloadBytes: 1000 },
    });
    const response = await ai.fetch('/v1/chat/completions', {
      method: 'POST',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'chat-v2', messages: [{ role: 'user', content: 'hi' }] }),
    });
    return { status: response.status, json: await response.json() };
  }, url);
  expect(alone.status).toBe(503);
  expect(alone.json.error).toMatchObject({ code: 'download_declined', param: 'model' });
  expect(alone.json.error.message).toMatch(/waits for consent: pass createVaani\(\{ fit: \{ confirm \} \}\)/);
  expect(seen).toEqual([]);
  expect(errors).toEqual([]);
});

test('an invalid fit option is a TypeError from createVaani', async ({ page }) => {
  await openHarness(page);
  const thrown = await page.evaluate(() =>
    [{ metered: 'never' }, { maxDownloadBytes: -1 }, { confirm: 'yes' }].map((fit) => {
      try {
        window.Vaani.createVaani({ fit } as never);
        return 'no error';
      } catch (error) {
        return `${(error as Error).name}: ${(error as Error).message}`;
      }
    }),
  );
  expect(thrown).toEqual([
    `TypeError: createVaani({ fit }): metered must be 'ask', 'remote' or 'local', not "never".`,
    'TypeError: createVaani({ fit }): maxDownloadBytes must be a finite number of bytes ≥ 0, not -1.',
    'TypeError: createVaani({ fit }): confirm must be a function (plan) => boolean | Promise<boolean>, not string.',
  ]);
});

/** The widgets page on the metered phone, a chat widget whose Vaani holds downloads over 1 kB. */
async function openChatWidget(page: Page, lang = 'en') {
  await page.addInitScript(meteredPhone);
  const errors = await openHarness(page, '/test/browser/pages/widgets.html');
  const seen = await watchModelFiles(page);
  await page.evaluate(
    async ({ base, lang }) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: { 'chat-v2': { baseURL: base } },
        fit: { maxDownloadBytes: 1000 },
      });
      await ai.models.clear();
      const failures: unknown[] = [];
      (window as unknown as { failures: unknown[] }).failures = failures;
      document.addEventListener('vaani-error', (event) => failures.push((event as CustomEvent).detail));
      window.Vaani.widgets.use(ai);
      document.querySelector('#root')!.innerHTML =
        `<div lang="${lang}"><vaani-chat max-tokens="4" temperature="0"></vaani-chat></div>`;
    },
    { base: url, lang },
  );
  return { errors, seen };
}

test('the chat widget asks before the download, with size and time: "Use the server"/"Not now" declines, Download answers', async ({
  page,
}) => {
  const { errors, seen } = await openChatWidget(page);
  const chat = page.locator('vaani-chat');
  await chat.locator('textarea').fill('Hello');
  await chat.locator('textarea').press('Enter');
  const dialog = chat.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  await expect(dialog).toHaveAccessibleName(/^Download [\d.]+ (kB|MB) for offline chat\?$/);
  await expect(dialog).toHaveAccessibleDescription('~1 s on this connection');
  const download = dialog.getByRole('button', { name: 'Download' });
  await expect(download).toBeFocused();
  expect(seen).toEqual([]);

  // Keyboard: Tab to "Not now" (no remote is configured), Enter declines.
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Not now' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(chat).toHaveAttribute('state', 'error');
  await expect(chat.locator('[part=status]')).toContainText('declined');
  expect(seen).toEqual([]);

  // Not asked again: the next message fails the same way without a dialog.
  const failures = () => page.evaluate(() => (window as unknown as { failures: { code: string }[] }).failures);
  await chat.locator('textarea').fill('Again');
  await chat.locator('textarea').press('Enter');
  await expect.poll(async () => (await failures()).length).toBe(2);
  expect((await failures()).map((f) => f.code)).toEqual(['download_declined', 'download_declined']);
  await expect(dialog).toHaveCount(0);

  // After ai.plan.reset() the widget asks again; Download (Enter on the focused button) answers.
  await page.evaluate(() => (document.querySelector('vaani-chat') as VaaniChat).vaani.plan.reset());
  await chat.locator('textarea').fill('Now download');
  await chat.locator('textarea').press('Enter');
  await expect(download).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(chat).toHaveAttribute('state', 'idle', { timeout: 60_000 });
  await expect(chat.locator('.message.assistant .body').last()).not.toBeEmpty();
  expect(seen.length).toBeGreaterThan(0);
  expect(errors).toEqual([]);
});

test('the consent dialog is in the page language (hi), and Escape declines', async ({ page }) => {
  await openChatWidget(page, 'hi');
  const chat = page.locator('vaani-chat');
  await chat.locator('textarea').fill('नमस्ते');
  await chat.locator('textarea').press('Enter');
  const dialog = chat.getByRole('alertdialog');
  await expect(dialog).toHaveAccessibleName(/^ऑफ़लाइन चैट के लिए [\d.]+ (kB|MB) डाउनलोड करें\?$/);
  await expect(dialog).toHaveAccessibleDescription('इस कनेक्शन पर ~1 सेकंड');
  await expect(dialog.getByRole('button', { name: 'डाउनलोड करें' })).toBeFocused();
  await expect(dialog.getByRole('button', { name: 'अभी नहीं' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(chat).toHaveAttribute('state', 'error');
});
