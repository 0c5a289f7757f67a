import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ensureEncoderFixture } from '../fixtures/encoder/fixture-dir';
import { tinyXlmr } from '../fixtures/encoder/spec';
import { ensureTinyIndicConformer } from '../fixtures/indic-conformer/ensure';
import { ensureDefaultLayoutDiffusion } from '../fixtures/diffusion/ensure';
import { ensureDecoderFixture } from '../fixtures/llm/fixture-dir';
import { tinyQwenCoder } from '../fixtures/llm/spec';
import { ensureTinyWhisper } from '../fixtures/whisper/ensure';
import { openDemo as open, startDemo } from './support/demo';

const root = process.cwd();
const modelsDir = join(root, 'test/.fixtures/demo-models');
const micWav = join(root, 'test/.fixtures/demo-mic.wav');
const MIC_SECONDS = 3.6;

/** The models folder `npm run demo` serves at /models/: the upstream chat export, the tiny Whisper, IndicConformer, encoder, code and LCM diffusion fixtures. */
async function models(): Promise<Record<string, string>> {
  const coder = (await ensureDecoderFixture('tiny-qwen-coder', { ...tinyQwenCoder, dtypes: ['fp32'] })).dir;
  return {
    'chat-v2': resolve(root, '../shared/fixtures/tiny-random-llama-fp16-genai'),
    'speech-stt-v1': await ensureTinyWhisper(),
    'speech-stt-v1.indic': await ensureTinyIndicConformer(),
    'embed-v1': (await ensureEncoderFixture('tiny-xlmr', tinyXlmr)).dir,
    'code-v1': coder,
    'code-v1-base': coder,
    'agent-v1': coder,
    // In the default export's own layout (external data, vocab.json + merges.txt).
    'image-v1': await ensureDefaultLayoutDiffusion(),
  };
}

/** Real speech for the fake microphone: the Common Voice clip (3.6 s, made 12 dB louder) as 48 kHz mono WAV; its RMS. */
function prepareMicrophone(): number {
  mkdirSync(join(root, 'test/.fixtures'), { recursive: true });
  execFileSync('ffmpeg', [
    '-y',
    '-loglevel',
    'error',
    '-i',
    resolve(root, '../shared/audio/common_voice_en_59751.mp3'),
    '-af',
    'volume=12dB',
    '-ar',
    '48000',
    '-ac',
    '1',
    micWav,
  ]);
  const stat = spawnSync('sox', [micWav, '-n', 'stat'], { encoding: 'utf8' }).stderr;
  return Number(/RMS\s+amplitude:\s+([\d.]+)/.exec(stat)![1]);
}

let server: Awaited<ReturnType<typeof startDemo>> | undefined;
let origin: string;
let micRms: number;

test.beforeAll(async () => {
  micRms = prepareMicrophone();
  server = await startDemo(modelsDir, await models());
  origin = server.origin;
});

test.afterAll(async () => {
  await server?.close();
});

test.use({
  launchOptions: {
    executablePath: '/usr/bin/chromium',
    args: [
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${micWav}%noloop`,
    ],
  },
});

const openDemo = (page: Page, errors: string[]) => open(page, origin, errors);

/** The WAV an <audio> element is playing: format fields, duration and loudness. */
async function wavOf(page: Page, selector: string) {
  return page.evaluate(async (selector) => {
    const player = document.querySelector<HTMLAudioElement>(selector)!;
    const bytes = await (await fetch(player.src)).arrayBuffer();
    const view = new DataView(bytes);
    const text = (at: number) => String.fromCharCode(...new Uint8Array(bytes, at, 4));
    const channels = view.getUint16(22, true);
    const sampleRate = view.getUint32(24, true);
    const bits = view.getUint16(34, true);
    let at = 12;
    while (text(at) !== 'data') at += 8 + view.getUint32(at + 4, true);
    const samples = new Int16Array(bytes.slice(at + 8, at + 8 + view.getUint32(at + 4, true)));
    const rms = Math.sqrt(samples.reduce((sum, x) => sum + (x / 32768) ** 2, 0) / samples.length);
    return {
      riff: text(0),
      wave: text(8),
      channels,
      sampleRate,
      bits,
      seconds: samples.length / channels / sampleRate,
      rms,
      paused: player.paused,
      time: player.currentTime,
    };
  }, selector);
}

test('the Code tab suggests ghost text after a pause (fill-in-the-middle) and explains the editor', async ({
  page,
}) => {
  const errors: string[] = [];
  await openDemo(page, errors);
  await page.click('nav a[href="#code"]');
  await page.locator('#code-editor').focus();
  await page.keyboard.press('End');
  await page.keyboard.type('ret');
  await expect(page.locator('#code-status')).toContainText(/first token in \d+ ms|No suggestion/, { timeout: 90_000 });
  await page.click('#code-explain');
  await expect(page.locator('#code-status')).toContainText(/explain: first token in \d+ ms/, { timeout: 90_000 });
  expect(await page.locator('#code-output').textContent()).not.toBe('');
  expect(errors).toEqual([]);
});

test('the Agents tab streams a run over the page tools and chains a Responses conversation', async ({ page }) => {
  const errors: string[] = [];
  await openDemo(page, errors);
  await page.click('nav a[href="#agents"]');
  await page.fill('#agents-steps', '2');
  await page.click('#agents-form button:not([type])');
  await expect(page.locator('#agents-status')).toContainText(/(completed|incomplete) in [12] steps, \d+ tokens/, {
    timeout: 90_000,
  });
  await expect(page.locator('#agents-trace li').first()).toContainText('Step 1');
  for (const text of ['नमस्ते', 'again']) {
    await page.fill('#responses-input', text);
    await page.click('#responses-form button');
    await expect(page.locator('#responses-input')).toHaveValue('', { timeout: 90_000 });
  }
  await expect(page.locator('#responses-log li')).toHaveCount(2);
  expect(errors).toEqual([]);
});

test('settings persist, and chat streams text from the model in the local folder', async ({ page }) => {
  const errors: string[] = [];
  await openDemo(page, errors);
  await page.reload();
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('#settings-modelFiles')).toHaveValue('folder');

  // The environment line says what the runtimes will find: shared engines, an adapter, or none.
  await expect(page.locator('#environment')).toContainText('one engine per model for all this site’s tabs');
  await expect(page.locator('#environment')).toHaveText(
    /· (WebGPU adapter( with shader-f16)?|a software WebGPU adapter \(auto runs WASM\)|WebGPU API but no adapter \(WASM only\)|no WebGPU in this browser)$/,
  );
  const adapter = await page.evaluate(async () => {
    const found = await navigator.gpu?.requestAdapter();
    return found ? (found.info.isFallbackAdapter ? 'software' : 'hardware') : 'none';
  });
  await expect(page.locator('#environment')).toContainText(
    { software: 'a software WebGPU adapter', hardware: '· WebGPU adapter', none: 'no' }[adapter],
  );

  await page.click('nav a[href="#chat"]');
  // The small model is the default.
  await expect(page.locator('#chat-model')).toHaveValue('chat-v2');
  // A turn that fails (max_tokens 0 is a 400) leaves no empty answer and is not sent again.
  await page.fill('#chat-max-tokens', '0');
  await page.fill('#chat-input', 'This one fails.');
  await page.press('#chat-input', 'Enter');
  await expect(page.locator('#chat-status')).toContainText('max_tokens');
  await expect(page.locator('.message.assistant')).toHaveCount(0);
  await expect(page.locator('.message.user.failed')).toHaveCount(1);
  await expect(page.locator('#chat-backend')).toHaveText('—');
  // Shift+Enter is a new line, Enter sends.
  await page.fill('#chat-input', 'Name three');
  await page.press('#chat-input', 'Shift+Enter');
  await expect(page.locator('#chat-input')).toHaveValue('Name three\n');
  await expect(page.locator('.message.user')).toHaveCount(1);
  await page.fill('#chat-max-tokens', '24');
  await page.fill('#chat-temperature', '0');
  await page.fill('#chat-input', 'Name three rivers of India.');
  await page.click('#chat-send');
  await expect(page.locator('#chat-status')).toContainText('tokens/s', { timeout: 90_000 });
  const reply = await page.locator('.message.assistant span').last().textContent();
  expect(reply?.length).toBeGreaterThan(0);
  await expect(page.locator('#chat-backend')).toHaveText('wasm');
  await expect(page.locator('#chat-engine')).toHaveText('local');
  // This Chromium has no built-in model (Prompt API): the chat tab says so.
  await expect(page.locator('#chat-builtin')).toHaveText('built-in: not available in this browser');
  await expect(page.locator('#chat-model option[value="builtin-chat"]')).toHaveText(
    'builtin-chat (not in this browser)',
  );
  await expect(page.locator('#chat-speed')).toHaveText(/^\d+(\.\d)? tok\/s$/);
  await page.screenshot({ path: 'test-results/demo-chat.png', fullPage: true });

  // The same question again in a new conversation: greedy decoding repeats the 24 tokens above and goes on.
  await page.click('#chat-clear');
  await page.fill('#chat-max-tokens', '1000');
  await page.fill('#chat-input', 'Name three rivers of India.');
  // Press Stop the moment the first words of the reply appear.
  const stopped = page.evaluate(
    () =>
      new Promise<void>((done) => {
        const log = document.querySelector('#chat-log')!;
        new MutationObserver((_, observer) => {
          if (!log.querySelector('.message.assistant span')?.textContent) return;
          observer.disconnect();
          document.querySelector<HTMLButtonElement>('#chat-stop')!.click();
          done();
        }).observe(log, { childList: true, subtree: true, characterData: true });
      }),
  );
  await page.click('#chat-send');
  await stopped;
  await expect(page.locator('#chat-status')).toHaveText(/^Stopped after \d+ chunks\.$/);
  await expect(page.locator('#chat-send')).toBeEnabled();

  await page.fill('#chat-max-tokens', '8');
  await page.fill('#chat-input', 'And a short one.');
  await page.press('#chat-input', 'Enter');
  await expect(page.locator('#chat-status')).toContainText('tokens/s', { timeout: 60_000 });
  await expect(page.locator('.message.assistant span')).toHaveCount(2);
  expect(errors).toEqual([]);
});

test('the Images tab shows every denoising step from ai.images progress events, then the image (HD too)', async ({
  page,
}) => {
  const errors: string[] = [];
  await openDemo(page, errors);
  await page.click('nav a[href="#images"]');
  // Every text the status line is given, in order (several progress events may land in one task).
  await page.evaluate(() => {
    const status = document.getElementById('images-status')!;
    const seen: string[] = ((window as unknown as { statuses: string[] }).statuses = []);
    new MutationObserver((records) => {
      for (const record of records) for (const node of record.addedNodes) seen.push(node.textContent ?? '');
    }).observe(status, { childList: true });
  });
  const statuses = () => page.evaluate(() => (window as unknown as { statuses: string[] }).statuses.splice(0));
  const image = page.locator('#images-output img');
  await page.fill('#images-seed', '7');
  await page.click('#images-form button');
  await expect(page.locator('#images-status')).toHaveText(/^64x64 in \d+ ms \(seed 7\)$/, { timeout: 60_000 });
  const steps = (of: number) => Array.from({ length: of }, (_, i) => `Generating: image 1, step ${i + 1} of ${of}`);
  expect((await statuses()).filter((text) => text.startsWith('Generating:'))).toEqual(steps(4));
  await expect(page.locator('#images-progress')).toHaveJSProperty('value', 1);
  await expect(image).toHaveJSProperty('naturalWidth', 64);
  await page.check('#images-hd');
  await page.click('#images-form button');
  await expect(page.locator('#images-status')).toHaveText(/^128x128 in \d+ ms \(seed 7\)$/, { timeout: 60_000 });
  expect((await statuses()).filter((text) => text.startsWith('Generating:'))).toEqual(steps(4));
  await expect(image).toHaveJSProperty('naturalWidth', 128);
  expect(errors).toEqual([]);
});

test('the models page downloads with a progress bar, shows the cache and deletes', async ({ page }) => {
  const errors: string[] = [];
  await openDemo(page, errors);
  await page.click('nav a[href="#models"]');
  const row = page.locator('tr[data-model="chat-v2"]');
  // Before the engine here loads, the catalogue's context is the remote service's.
  await expect(row.locator('td').nth(2)).toHaveText('64K remote · here once loaded');
  await expect(row.locator('td').nth(3)).toHaveText('₹32 / 1M tokens');
  await expect(row.locator('td').nth(4)).toHaveText('available');
  await expect(page.locator('tr[data-model="image-v1"] td').nth(3)).toHaveText('₹15 / 1M tokens');
  // "available" only where something here or a remote runs the model.
  for (const tr of await page.locator('#models-body tr').all()) {
    const [state, places] = [await tr.locator('td').nth(4).textContent(), await tr.locator('td').nth(5).textContent()];
    expect(state === 'not in this build').toBe(places === '—');
  }
  await expect(page.locator('#models-status')).toHaveText(/^\d+ models\.$/);
  // Each model's plan here (ai.plan): where it would run and its size, exact from the folder's file list.
  await expect(row.locator('.plan span')).toHaveText(/^here · wasm fp32 · 5\.\d MB to download/);
  await expect(row.locator('.plan .reason')).toContainText(/^chat-v2 runs here on WASM \(fp32\): 6 MB to download/);
  // "Will it run here?": ai.plan for every product's default model, and what this browser reports.
  await expect(page.locator('#fit-device')).toContainText(/^This browser: .* memory/);
  await expect(page.locator('#fit-body tr')).toHaveCount(9);
  await expect(page.locator('#fit-body tr[data-product="voice-hi"] td').first()).toHaveText('Transcription (Hindi)');
  await expect(page.locator('#fit-body tr[data-product="speech-tts-v1"] td').nth(3)).toHaveText('per voice');
  const fit = page.locator('#fit-body tr[data-product="chat"] td');
  await expect(fit.nth(1)).toHaveText('chat-v2');
  await expect(fit.nth(2)).toHaveText('yes · wasm fp32');
  await expect(fit.nth(3)).toHaveText(/^5\.\d MB$/);
  await expect(row.locator('.cache')).toContainText('absent');
  await row.getByRole('button', { name: 'Download' }).click();
  await expect(row.locator('.cache')).toContainText('cached', { timeout: 60_000 });
  await expect(row.locator('.plan span')).toHaveText(/^here · wasm fp32 · 5\.\d MB cached$/);
  await expect(row.locator('.plan .reason')).toContainText('cached: nothing to download');
  await expect(fit.nth(4)).toHaveText('cached');
  await expect(row.locator('progress')).toHaveJSProperty('value', 1);
  await expect(row.locator('small')).toHaveText('done');
  await expect(page.locator('#models-usage')).toContainText(/Cache: 5\.\d MB in 1 model/);
  await page.screenshot({ path: 'test-results/demo-models.png', fullPage: true });
  await row.getByRole('button', { name: 'Delete' }).click();
  await expect(row.locator('.cache')).toContainText('absent');
  await expect(page.locator('#models-usage')).toContainText('Cache: 0 B in 0 models');

  // The neural voices' weights are models here too; the folder lacks them, and says how to get them into it.
  const pull = (id: string) =>
    `not in the folder: npx vaani pull ${id} --to test/.fixtures/demo-models, or import a folder below`;
  for (const id of ['kokoro-82m', 'mms-tts-hin'])
    await expect(page.locator(`tr[data-model="${id}"] .cache`)).toHaveText(pull(id));
  // A model the folder lacks, imported from a folder picked on disk.
  const pro = page.locator('tr[data-model="chat-v2-pro"]');
  await expect(pro.locator('.cache')).toHaveText(pull('chat-v2-pro'));
  await page.selectOption('#models-import-id', 'chat-v2-pro');
  await page.setInputFiles('#models-import-folder', resolve(root, '../shared/fixtures/tiny-random-llama-fp16-genai'));
  await expect(page.locator('#models-status')).toContainText('chat-v2-pro: 6 files');
  await expect(pro.locator('.cache')).toContainText('imported');
  await expect(page.locator('#models-usage')).toContainText('in 1 model');
  await pro.getByRole('button', { name: 'Delete' }).click();
  await expect(pro.locator('.cache')).toContainText('not in the folder');
  expect(errors).toEqual([]);
});

test('the voice studio speaks a WAV, records the microphone, transcribes, isolates and changes the voice', async ({
  page,
}) => {
  const errors: string[] = [];
  await openDemo(page, errors);
  await page.click('nav a[href="#voice"]');

  await expect(page.locator('#speech-language option[value="hi-IN"]')).toHaveCount(1);
  await page.selectOption('#speech-language', 'hi-IN');
  await page.fill('#speech-speed', '1.25');
  await page.click('#speech-go');
  await expect(page.locator('#speech-status')).toContainText('Spoke', { timeout: 60_000 });
  const wav = await wavOf(page, '#speech-player');
  expect(wav).toMatchObject({ riff: 'RIFF', wave: 'WAVE', channels: 1, bits: 16 });
  expect(wav.seconds).toBeGreaterThan(0.5);
  expect(wav.rms).toBeGreaterThan(0.01);
  await expect
    .poll(async () => page.locator('#speech-player').evaluate((p: HTMLAudioElement) => p.currentTime))
    .toBeGreaterThan(0);
  await expect(page.locator('#speech-download')).toBeVisible();
  // A request that fails (no text) leaves no clip of the one before.
  const said = await page.inputValue('#speech-text');
  await page.fill('#speech-text', '');
  await page.click('#speech-go');
  await expect(page.locator('#speech-status')).toContainText('400');
  await expect(page.locator('#speech-download')).toBeHidden();
  expect(await page.locator('#speech-player').evaluate((p: HTMLAudioElement) => p.getAttribute('src'))).toBeNull();
  await page.fill('#speech-text', said);

  // The fake microphone plays the clip once: record it with VAD, which stops by itself after the silence that follows.
  await page.check('#clip-vad');
  await page.click('#clip-record');
  await expect(page.locator('#clip-status')).toContainText('stops by itself');
  await expect(page.locator('#clip-status')).toContainText('Recorded', { timeout: 30_000 });
  await expect(page.locator('#clip-stop')).toBeDisabled();
  const recorded = await wavOf(page, '#clip-player');
  expect(recorded).toMatchObject({ channels: 1, sampleRate: 16000, bits: 16 });
  expect(recorded.seconds).toBeGreaterThan(1);
  expect(recorded.seconds).toBeLessThan(MIC_SECONDS + 0.3);
  // Trimmed to the speech, it holds the clip's energy: RMS = the clip's × √(clip length / kept length).
  const expected = micRms * Math.sqrt(MIC_SECONDS / recorded.seconds);
  expect(recorded.rms).toBeGreaterThan(expected * 0.7);
  expect(recorded.rms).toBeLessThan(expected * 1.3);

  await page.click('#transcribe-go');
  await expect(page.locator('#transcribe-status')).toContainText('Done in', { timeout: 90_000 });
  await page.fill('#transcribe-language', 'ta');
  await page.click('#transcribe-go');
  await expect(page.locator('#transcribe-status')).toContainText('by IndicConformer (tamil, request)', {
    timeout: 90_000,
  });
  await page.fill('#transcribe-language', '');
  await page.selectOption('#transcribe-task', 'translate');
  await page.selectOption('#transcribe-chunking', 'auto');
  await page.click('#transcribe-go');
  await expect(page.locator('#transcribe-status')).toContainText('Done in', { timeout: 90_000 });

  await page.click('#isolate-go');
  await expect(page.locator('#isolate-status')).toContainText('Cleaned', { timeout: 60_000 });
  const cleaned = await wavOf(page, '#isolate-after');
  expect(Math.abs(cleaned.seconds - recorded.seconds)).toBeLessThan(0.05);
  await page.click('#change-go');
  await expect(page.locator('#change-status')).toContainText('Done in', { timeout: 60_000 });
  const changed = await wavOf(page, '#change-player');
  expect(Math.abs(changed.seconds - recorded.seconds)).toBeLessThan(0.05);
  await page.screenshot({ path: 'test-results/demo-voice.png', fullPage: true });

  // Without VAD the recorder runs until Stop (the microphone is silent by now).
  await page.uncheck('#clip-vad');
  await page.click('#clip-record');
  await expect(page.locator('#clip-status')).toContainText('press Stop');
  // 1.5 s of wall time: a busy machine's audio thread delivers late, so the check keeps a margin.
  await page.waitForTimeout(1500);
  await page.click('#clip-stop');
  await expect(page.locator('#clip-status')).toHaveText(/^Recorded \d\.\d\d s of 16 kHz audio\.$/);
  expect((await wavOf(page, '#clip-player')).seconds).toBeGreaterThan(0.9);
  expect(errors).toEqual([]);
});

test("the voice studio lists each voice's licence and shows a CC-BY voice's credit line", async ({ page }) => {
  const errors: string[] = [];
  await openDemo(page, errors);
  await page.click('nav a[href="#voice"]');
  await expect(page.locator('#speech-status')).toContainText('voices in');
  await page.selectOption('#speech-language', 'ta-IN');
  await expect(page.locator('#speech-voice option[value="ta-IN-rasa-female"]')).toContainText('CC-BY-4.0');
  await page.selectOption('#speech-voice', 'ta-IN-rasa-female');
  await expect(page.locator('#speech-credit')).toContainText('AI4Bharat');
  await page.selectOption('#speech-language', 'hi-IN');
  await expect(page.locator('#speech-voice option[value="hi-IN-mms-1"]')).toContainText('not for commercial use');
  await page.selectOption('#speech-voice', 'hi-IN-female-1');
  await expect(page.locator('#speech-credit')).toHaveText('');
  expect(errors).toEqual([]);
});

test('the Speak format menu offers exactly the formats the route writes in this browser; MP3 through the served LGPL plug-in decodes to the WAV duration', async ({
  page,
}) => {
  const errors: string[] = [];
  await openDemo(page, errors);
  await page.click('nav a[href="#voice"]');
  await expect(page.locator('#speech-status')).toContainText('voices in');
  await page.selectOption('#speech-language', 'hi-IN');
  // Which formats /v1/audio/speech really answers here, asked one by one (a 400 names the ones it can write).
  const answered = await page.evaluate(async () => {
    const out: Record<string, number> = {};
    for (const format of ['wav', 'pcm', 'flac', 'opus', 'aac', 'mp3']) {
      const response = await fetch('/v1/audio/speech', {
        method: 'POST',
        headers: { authorization: 'Bearer demo', 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'speech-tts-v1',
          voice: 'hi-IN-female-1',
          input: 'नमस्ते',
          response_format: format,
        }),
      });
      out[format] = response.status;
    }
    return out;
  });
  const writable = Object.keys(answered).filter((format) => answered[format] === 200);
  expect(
    Object.values(answered).every((status) => status === 200 || status === 400),
    JSON.stringify(answered),
  ).toBe(true);
  const offered = await page
    .locator('#speech-format option')
    .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
  expect(offered.sort()).toEqual(writable.sort());
  // The plug-in is served (@breezystack/lamejs is installed): MP3 is offered; whatever is missing is named.
  expect(offered).toContain('mp3');
  await expect(page.locator('#plugins')).toContainText('lamejs');
  const labels: Record<string, string> = { aac: 'AAC', opus: 'Opus (Ogg)', flac: 'FLAC' };
  const missing = Object.keys(labels).filter((format) => !writable.includes(format));
  if (missing.length)
    await expect(page.locator('#speech-status')).toContainText(
      `No ${missing.map((format) => labels[format]).join(' or ')} encoder in this browser.`,
    );
  await page.screenshot({ path: 'test-results/demo-voice-formats.png' });

  const spoken = async (format: string) => {
    await page.selectOption('#speech-format', format);
    await page.click('#speech-go');
    await expect(page.locator('#speech-status')).toContainText('Spoke', { timeout: 60_000 });
    await expect(page.locator('#speech-download')).toHaveText(`Download ${format.toUpperCase()}`);
    return page.evaluate(async () => {
      const player = document.querySelector<HTMLAudioElement>('#speech-player')!;
      const blob = await (await fetch(player.src)).blob();
      const audio = await new AudioContext().decodeAudioData(await blob.arrayBuffer());
      return { type: blob.type, seconds: audio.duration };
    });
  };
  const wav = await spoken('wav');
  const mp3 = await spoken('mp3');
  expect(mp3.type).toBe('audio/mpeg');
  await expect(page.locator('#speech-status')).toContainText('audio/mpeg');
  // The same speech: longer only by the MP3 encoder's delay and its last frame's padding.
  expect(mp3.seconds - wav.seconds).toBeGreaterThanOrEqual(0);
  expect(mp3.seconds - wav.seconds).toBeLessThan(0.1);
  await expect
    .poll(async () => page.locator('#speech-player').evaluate((p: HTMLAudioElement) => p.currentTime))
    .toBeGreaterThan(0);
  await page.screenshot({ path: 'test-results/demo-voice-mp3.png' });
  expect(errors).toEqual([]);
});

test('the Widgets tab shows every widget with its snippet; the chat widget answers from the folder model', async ({
  page,
}) => {
  const errors: string[] = [];
  await openDemo(page, errors);
  await page.click('nav a[href="#widgets"]');
  for (const tag of ['vaani-dictate', 'vaani-speak', 'vaani-chat', 'vaani-voice-assistant']) {
    await expect(page.locator(`#tab-widgets [data-snippet] > ${tag}`)).toBeVisible();
    await expect(page.locator('#tab-widgets pre.snippet code', { hasText: `<${tag}` })).toHaveCount(1);
  }
  const chat = page.locator('#tab-widgets vaani-chat');
  await chat.evaluate((element) => element.setAttribute('max-tokens', '8'));
  await chat.locator('textarea').fill('Hello');
  await chat.locator('textarea').press('Enter');
  await expect(chat.locator('[part=stats]')).toHaveText(/^wasm · [\d.]+ tok\/s$/, { timeout: 90_000 });
  await expect(chat.locator('.message.assistant .body')).not.toBeEmpty();
  await page.selectOption('#widgets-theme', 'dark');
  await expect(chat).toHaveAttribute('theme', 'dark');
  await page.selectOption('#widgets-lang', 'hi');
  await expect(page.locator('#tab-widgets [data-snippet] > vaani-dictate button')).toHaveAttribute(
    'aria-label',
    'बोलकर लिखें',
  );
  await page.screenshot({ path: 'test-results/demo-widgets.png', fullPage: true });
  expect(errors).toEqual([]);
});

test('the Data tab ingests a document through the SDK, finds its passage, keeps it after a reload and deletes it', async ({
  page,
}) => {
  const errors: string[] = [];
  await openDemo(page, errors);
  await page.goto(`${origin}/#data`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
  await page.setInputFiles('#data-file', [
    {
      name: 'library.md',
      mimeType: 'text/markdown',
      buffer: Buffer.from(
        '# Library\n\nपुस्तकालय सुबह नौ बजे खुलता है।\n\n## Cards\n\nLibrary cards are free for students.\n',
      ),
    },
  ]);
  await page.click('#data-upload-form button:not([type])');
  await expect(page.locator('#data-status')).toContainText('the store holds 1 file(s)', { timeout: 60_000 });
  await expect(page.locator('#data-files')).toContainText('library.md completed');
  await page.reload();
  await expect(page.locator('#data-files')).toContainText('library.md completed', { timeout: 30_000 });
  await page.fill('#data-query', 'पुस्तकालय खुलता है');
  await page.click('#data-search-form button');
  // After the reload the search starts the embedding worker again: give its model load time.
  await expect(page.locator('#data-results li').first()).toContainText('पुस्तकालय सुबह नौ बजे खुलता है।', {
    timeout: 30_000,
  });
  await page.click('#data-ask-form button');
  await expect(page.locator('#data-status')).toContainText(/Answered in \d+ ms from [1-9]\d* passages/, {
    timeout: 60_000,
  });
  await expect(page.locator('#data-results li').first()).toContainText('[1] library.md');
  await page.click('#data-clear');
  await expect(page.locator('#data-status')).toContainText('Deleted 1 file(s) and the store.');
  expect(errors).toEqual([]);
});

/**
 * An axe scan run by axe.run() in the page itself (legacy mode): the same rules and results for a
 * page without cross-origin frames, without the default mode's extra blank page (opened, given
 * axe's source again and closed for every scan: most of the tour's time).
 */
const axe = (page: Page) => new AxeBuilder({ page }).setLegacyMode();

/** A greeting in each script the demo carries a Noto face for. */
const SCRIPTS: Record<string, string> = {
  'Noto Sans Devanagari': 'नमस्ते',
  'Noto Sans Bengali': 'নমস্কার',
  'Noto Sans Tamil': 'வணக்கம்',
  'Noto Sans Telugu': 'నమస్కారం',
  'Noto Sans Kannada': 'ನಮಸ್ಕಾರ',
  'Noto Sans Malayalam': 'നമസ്കാരം',
  'Noto Sans Gujarati': 'નમસ્તે',
  'Noto Sans Gurmukhi': 'ਸਤ ਸ੍ਰੀ ਅਕਾਲ',
  'Noto Sans Oriya': 'ନମସ୍କାର',
  'Noto Nastaliq Urdu': 'آداب',
  'Noto Sans Ol Chiki': 'ᱥᱟᱱᱛᱟᱲᱤ',
  'Noto Sans Meetei Mayek': 'ꯃꯤꯇꯩ ꯂꯣꯟ',
};

test('tour: every tab at desktop and phone width fits, passes an accessibility scan, logs no error; every Indian script has its glyphs', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} ${message.location().url}`);
  });
  // The local folder from the first load (the default, "auto", probes the hub first: an error offline).
  await page.addInitScript(() =>
    localStorage.setItem(
      'vaani-demo-settings',
      JSON.stringify({ modelFiles: 'folder', folder: '/models/', backend: 'wasm' }),
    ),
  );
  await openDemo(page, errors);
  const tabs = await page.locator('nav a').evaluateAll((links) => links.map((a) => a.getAttribute('href')!.slice(1)));
  expect(tabs.length).toBeGreaterThan(8);
  const problems: string[] = [];
  for (const [label, width, height] of [
    ['desktop', 1280, 900],
    ['phone', 390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const tab of tabs) {
      await page.click(`nav a[href="#${tab}"]`);
      await expect(page.locator(`#tab-${tab}`)).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 0) {
        await page.screenshot({ path: test.info().outputPath(`tour-${label}-${tab}.png`), fullPage: true });
        // Name what sticks out, so a failure says where to look.
        const wide = await page.evaluate(() =>
          [...document.querySelectorAll<HTMLElement>('body *')]
            .filter((e) => e.offsetParent !== null && e.getBoundingClientRect().right > innerWidth + 1)
            .slice(0, 6)
            .map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}`),
        );
        problems.push(`${tab} at ${width} px is ${overflow} px too wide: ${wide.join(', ')}`);
      }
      const { violations } = await axe(page).include(`#tab-${tab}`).analyze();
      const serious = violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) }));
      if (serious.length) problems.push(`${tab} at ${width} px: ${JSON.stringify(serious)}`);
    }
  }
  expect(problems).toEqual([]);
  const { violations } = await axe(page).exclude('[id^="tab-"]').analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  // Each script's face is found for its text, loads, and then renders it.
  const fonts = await page.evaluate(async (scripts) => {
    const out: Record<string, { faces: number; check: boolean }> = {};
    for (const [family, text] of Object.entries(scripts)) {
      const faces = await document.fonts.load(`16px "${family}"`, text);
      out[family] = { faces: faces.length, check: document.fonts.check(`16px "${family}"`, text) };
    }
    return out;
  }, SCRIPTS);
  for (const [family, { faces, check }] of Object.entries(fonts)) {
    expect(faces, family).toBeGreaterThan(0);
    expect(check, family).toBe(true);
  }
  expect(errors).toEqual([]);
});
