import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { ensureDecoderFixture } from '../../fixtures/llm/fixture-dir';
import { tinyLlama } from '../../fixtures/llm/spec';
import { convert } from '../../fixtures/whisper/audio';
import { ensureTinyWhisper, FIXTURE_ROOT, FIXTURE_URL } from '../../fixtures/whisper/ensure';
import { openHarness } from './page';

export const PAGE = '/test/browser/pages/widgets.html';
export const ESPEAK_BASE = '/node_modules/@echogarden/espeak-ng-emscripten/';

/** The answer the scripted chat model writes to any prompt: three sentences, Markdown, and HTML that must not run. */
export const ANSWER = [
  'Namaste! I am **Vaani**, and I speak each sentence as soon as it is written.',
  ' The second sentence is long enough to keep the speaker busy for a few more seconds.',
  ' The third one lets you interrupt me while I am still talking, which is called barge-in.',
  '\n\n- one\n- two <img src="x" onerror="window.__pwned = 1"><script>window.__pwned = 2</script>',
];

/**
 * The answer of a second scripted model, for turns that must be spoken to the end: one short sentence
 * plays in about a second where ANSWER's take some 15 s of real time.
 */
export const SHORT_ANSWER = ['Namaste! I am **Vaani**.'];

/** One common_voice utterance with 3 s of silence before and 4 s after (48 kHz, for the fake microphone). */
export const ONE_UTTERANCE = () =>
  convert(join('common_voice_en_59751.mp3'), join(FIXTURE_ROOT, 'audio/widgets-one-48k.wav'), [
    '-af',
    'pan=mono|c0=c0,adelay=3000,apad=pad_dur=4',
    '-ar',
    '48000',
    '-c:a',
    'pcm_s16le',
  ]);

/** The utterance at 3 s and again at 16 s (while the first answer is being spoken), then 4 s of silence. */
export const TWO_UTTERANCES = () =>
  convert('common_voice_en_59751.mp3', join(FIXTURE_ROOT, 'audio/widgets-two-48k.wav'), [
    '-filter_complex',
    '[0:a]pan=mono|c0=c0,asplit=2[a][b];[b]adelay=13000[c];[a][c]amix=inputs=2:normalize=0,adelay=3000,apad=pad_dur=4',
    '-ar',
    '48000',
    '-c:a',
    'pcm_s16le',
  ]);

export interface WidgetModels {
  whisper: string;
  scripted: string;
  /** Writes SHORT_ANSWER. */
  short: string;
  random: string;
}

/** The generated models the widget tests use: tiny Whisper, chat models that write ANSWER or SHORT_ANSWER, a random one. */
export async function ensureWidgetModels(): Promise<WidgetModels> {
  await ensureTinyWhisper();
  const scripted = await ensureDecoderFixture('tiny-widget-answer', {
    ...tinyLlama,
    dtypes: ['fp32'],
    seed: 11,
    scripted: { chain: ['Ċ', ...ANSWER, '<|im_end|>'], addedTokens: ANSWER },
  });
  const short = await ensureDecoderFixture('tiny-widget-short-answer', {
    ...tinyLlama,
    dtypes: ['fp32'],
    seed: 12,
    scripted: { chain: ['Ċ', ...SHORT_ANSWER, '<|im_end|>'], addedTokens: SHORT_ANSWER },
  });
  const random = await ensureDecoderFixture('tiny-llama', tinyLlama);
  return { whisper: `${FIXTURE_URL}tiny/`, scripted: scripted.url, short: short.url, random: random.url };
}

/** Opens the widgets page with one Vaani (given to `widgets.use`) whose chat-v2 is `chat`, and `html` in <main>. */
export async function openWidgets(
  page: Page,
  models: WidgetModels,
  chat: 'scripted' | 'short' | 'random',
  html: string,
) {
  const errors = await openHarness(page, PAGE);
  await page.evaluate(
    ({ models, chat, espeak, html }) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: {
          'chat-v2': { baseURL: chat },
          'speech-stt-v1': { baseURL: models.whisper, dtype: 'fp32' },
          'espeak-ng': { baseURL: espeak },
        },
      });
      window.Vaani.widgets.use(ai);
      (window as unknown as { ai: unknown }).ai = ai;
      document.querySelector('#root')!.innerHTML = html;
    },
    { models, chat: models[chat], espeak: ESPEAK_BASE, html },
  );
  return errors;
}

/** Collects every vaani-state / vaani-result / vaani-error event of the page, in order. */
export async function recordEvents(page: Page) {
  await page.evaluate(() => {
    const log: { type: string; tag: string; detail: unknown; at: number }[] = [];
    (window as unknown as { events: typeof log }).events = log;
    for (const type of ['vaani-state', 'vaani-result', 'vaani-error', 'vaani-sentence'])
      document.addEventListener(type, (event) =>
        log.push({
          type,
          tag: (event.target as Element).localName,
          detail: JSON.parse(JSON.stringify((event as CustomEvent).detail, (k, v) => (k === 'target' ? undefined : v))),
          at: performance.now(),
        }),
      );
  });
}

export const events = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { events: { type: string; tag: string; detail: Record<string, unknown>; at: number }[] })
        .events,
  );
