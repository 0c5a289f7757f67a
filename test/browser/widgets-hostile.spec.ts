import { expect as baseExpect, test, type Locator, type Page } from '@playwright/test';
import { startRemote } from '../support/remote-server';
import { microphone } from '../fixtures/whisper/microphone';
import { ensureTinyWhisper, FIXTURE_URL } from '../fixtures/whisper/ensure';
import { ESPEAK_BASE, ONE_UTTERANCE, PAGE } from './support/widgets';
import { openHarness } from './support/page';

/**
 * A remote answer written to attack the page: raw HTML, `javascript:` and `data:` links, SVG, event
 * handlers, styles and every element that loads a URL by itself. Each payload reports to `window.ran`
 * or opens a dialog if it runs, and points at `CANARY` if it loads; the words between them must still show.
 */
const hostile = (canary: string) =>
  [
    'Here is **bold** text and a [safe link](https://example.com/ok).\n\n',
    '<img src="C/img.png" onerror="ran.push(\'img\')"> after-img ',
    '<script>ran.push("script")</script> after-script ',
    '[js link](javascript:ran.push("md-link")) ',
    '<a href="javascript:ran.push(\'a\')" id="js">raw link</a> ',
    '<a href="data:text/html,<script>alert(1)</script>">data link</a> ',
    '<a href="C/plain">plain link</a>\n\n',
    '<svg onload="ran.push(\'svg\')"><image href="C/svg-image.png"/><use href="C/use.svg#x"/>',
    '<script>ran.push("svg-script")</script><text>svg text</text></svg> after-svg ',
    '<iframe src="C/frame.html"></iframe><iframe srcdoc="<script>parent.ran.push(1)</script>"></iframe> ',
    '<div style="background:url(C/style.png)">styled</div>',
    '<style>@import url(C/import.css); body{background:url(C/bg.png)}</style>',
    '<table background="C/table.png"><tr><td background="C/td.png">cell</td></tr></table>',
    '<video poster="C/poster.png" src="C/video.mp4"></video><audio src="C/audio.mp3" autoplay></audio>',
    '<object data="C/object"></object><embed src="C/embed"> after-embed ',
    '<link rel="stylesheet" href="C/link.css"><link rel="prefetch" href="C/prefetch">',
    '<meta http-equiv="refresh" content="0;url=C/refresh"><base href="C/base/">',
    '<form action="C/form"><input autofocus onfocus="ran.push(\'focus\')"><button formaction="C/x">go</button></form>',
    '<details open ontoggle="ran.push(\'toggle\')"><summary>more</summary>details</details> ',
    '<img src="data:image/svg+xml,<svg xmlns=%22http://www.w3.org/2000/svg%22 onload=%22alert(2)%22/>">',
    '<math><mtext><table><mglyph><style><img src="C/mxss.png" onerror="ran.push(\'mxss\')"></style></mglyph></table></mtext></math>',
    '\n\n![tracker](C/markdown-image.png) <p onclick="ran.push(\'click\')">The end: still here.</p>',
  ]
    .join('')
    .replaceAll('C/', `${canary}/`);

const WORDS = ['bold', 'safe link', 'raw link', 'data link', 'plain link', 'cell', 'styled', 'The end: still here.'];

/** Serves the hostile answer as the remote's chat stream, 40 characters a chunk (tags arrive cut in half). */
async function hostileRemote() {
  let canary = '';
  const remote = await startRemote((seen, res) => {
    if (!seen.url.endsWith('/chat/completions')) return false;
    const text = hostile(canary);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({ id: 'x', created: 1, model: 'chat-v2', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    for (let i = 0; i < text.length; i += 40) res.write(chunk({ content: text.slice(i, i + 40) }, null));
    res.end(chunk({}, 'stop') + 'data: [DONE]\n\n');
    return true;
  });
  canary = `${new URL(remote.url).origin}/canary`;
  return { ...remote, canary };
}

/** Opens the widgets page with a Vaani whose chat is the hostile remote; records dialogs and page requests. */
async function open(page: Page, remote: string, html: string) {
  const dialogs: string[] = [];
  const requests: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('request', (request) => requests.push(request.url()));
  const errors = await openHarness(page, PAGE);
  await page.evaluate(
    ({ remote, whisper, espeak, html }) => {
      (window as unknown as { ran: string[] }).ran = [];
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        remote: { baseURL: remote },
        models: {
          'speech-stt-v1': { baseURL: whisper, dtype: 'fp32' },
          'espeak-ng': { baseURL: espeak },
        },
      });
      window.Vaani.widgets.use(ai);
      document.querySelector('#root')!.innerHTML = html;
    },
    { remote, whisper: `${FIXTURE_URL}tiny/`, espeak: ESPEAK_BASE, html },
  );
  return { errors, dialogs, requests };
}

/** Nothing ran, nothing loaded, nothing that could run or load is in the answer, and its words show. */
async function expectHarmless(page: Page, answer: Locator, seen: Awaited<ReturnType<typeof open>>, canary: string[]) {
  // Anything deferred (an image error, an iframe, a refresh) has had time to happen.
  await page.waitForTimeout(1500);
  for (const word of WORDS) await expect(answer).toContainText(word);
  const shape = await answer.evaluate((element) => {
    const all = [...element.querySelectorAll('*')];
    return {
      tags: [...new Set(all.map((e) => e.localName))].sort(),
      attributes: [...new Set(all.flatMap((e) => [...e.attributes].map((a) => a.name)))].sort(),
      hrefs: all.flatMap((e) => (e.getAttribute('href') ? [e.getAttribute('href')!] : [])),
    };
  });
  const loaders = ['img', 'svg', 'image', 'use', 'iframe', 'style', 'video', 'audio', 'object', 'embed', 'link'];
  expect(
    shape.tags.filter((tag) => [...loaders, 'script', 'meta', 'base', 'form', 'input', 'math'].includes(tag)),
  ).toEqual([]);
  expect(
    shape.attributes.filter((name) => name.startsWith('on') || ['style', 'background', 'src'].includes(name)),
  ).toEqual([]);
  expect(shape.hrefs.filter((href) => !/^https?:/.test(href))).toEqual([]);
  expect(await page.evaluate(() => (window as unknown as { ran: string[] }).ran)).toEqual([]);
  expect(seen.dialogs).toEqual([]);
  expect(seen.requests.filter((url) => url.includes('/canary') || url.startsWith('data:'))).toEqual([]);
  expect(canary).toEqual([]);
  expect(page.url()).toContain(PAGE);
  expect(seen.errors).toEqual([]);
}

const expect = baseExpect.configure({ timeout: 90_000 });
test.use(microphone(ONE_UTTERANCE()));
test.beforeAll(async () => {
  await ensureTinyWhisper();
});

test('<vaani-chat> shows a hostile remote answer as text: nothing runs, nothing loads', async ({ page }) => {
  const remote = await hostileRemote();
  try {
    const seen = await open(page, remote.url, '<vaani-chat max-tokens="64"></vaani-chat>');
    const chat = page.locator('vaani-chat');
    await chat.locator('[part~=input]').fill('Tell me something');
    await chat.locator('[part~=send]').click();
    const answer = chat.locator('.message.assistant .body');
    await expect(answer).toContainText('The end: still here.');
    await expect(chat).toHaveAttribute('state', 'idle');
    await expectHarmless(
      page,
      answer,
      seen,
      remote.requests.filter((r) => r.url.includes('/canary')).map((r) => r.url),
    );
    expect(remote.requests.filter((r) => r.url.endsWith('/chat/completions'))).toHaveLength(1);
  } finally {
    await remote.close();
  }
});

test('<vaani-voice-assistant> shows a hostile remote answer as text: nothing runs, nothing loads', async ({ page }) => {
  test.slow();
  const remote = await hostileRemote();
  try {
    const seen = await open(
      page,
      remote.url,
      '<vaani-voice-assistant voice="en-US-female-1" language="en" silence-ms="1200"></vaani-voice-assistant>',
    );
    const assistant = page.locator('vaani-voice-assistant');
    await assistant.locator('[part~=talk]').click();
    const answer = assistant.locator('.turn.assistant').first();
    await expect(answer).toContainText('The end: still here.');
    await assistant.evaluate((element: HTMLElement & { end(): void }) => element.end());
    await expectHarmless(
      page,
      answer,
      seen,
      remote.requests.filter((r) => r.url.includes('/canary')).map((r) => r.url),
    );
  } finally {
    await remote.close();
  }
});
