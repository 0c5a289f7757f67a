import AxeBuilder from '@axe-core/playwright';
import { expect as baseExpect, test, type Page } from '@playwright/test';
import type { AssistantTurn, VaaniChat, VaaniVoiceAssistant } from '../../src/widgets/index';
import { endsSentence } from '../../src/widgets/sentences';
import { microphone } from '../fixtures/whisper/microphone';
import { cpuHog } from './support/hog';
import {
  ANSWER,
  ensureWidgetModels,
  events,
  ONE_UTTERANCE,
  openWidgets,
  recordEvents,
  SHORT_ANSWER,
  type WidgetModels,
} from './support/widgets';

/**
 * The space the widget puts before inserted text: none when the text starts with a space or
 * punctuation (the random-weights model's transcript sometimes does).
 */
const lead = (text: string) => (/^[\s.,!?;:।]/.test(text) ? '' : ' ');

test.use(microphone(ONE_UTTERANCE()));
/** Engines run on a shared 2-core machine: give every wait for a model room. */
const expect = baseExpect.configure({ timeout: 90_000 });
test.beforeEach(() => test.slow());

const hog = cpuHog();
let models: WidgetModels;
test.beforeAll(async () => {
  models = await ensureWidgetModels();
});

const resultOf = (page: Page, tag: string) =>
  page.evaluate(
    (tag) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        const root = document.querySelector('#root')!;
        root.addEventListener('vaani-result', (event) => {
          if ((event.target as Element).localName === tag) resolve((event as CustomEvent).detail);
        });
        root.addEventListener('vaani-error', (event) =>
          reject(new Error(JSON.stringify((event as CustomEvent).detail))),
        );
      }),
    tag,
  );

test('dictation inserts the transcription at the caret of a textarea inside a form, without submitting it or shifting layout', async ({
  page,
}) => {
  const errors = await openWidgets(
    page,
    models,
    'random',
    `<form id="form" action="/nowhere"><label for="note">Note</label>
       <textarea id="note">Hello world</textarea>
       <vaani-dictate for="note" language="en" silence-ms="1200"></vaani-dictate></form>`,
  );
  await recordEvents(page);
  hog.start();
  await page.evaluate(() => {
    const w = window as unknown as { submitted: boolean; inputs: number; shift: number };
    w.submitted = false;
    w.inputs = 0;
    w.shift = 0;
    document.querySelector('#form')!.addEventListener('submit', (event) => {
      w.submitted = true;
      event.preventDefault();
    });
    document.querySelector('#note')!.addEventListener('input', () => w.inputs++);
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.shift += (entry as PerformanceEntry & { value: number }).value;
    }).observe({ type: 'layout-shift', buffered: true });
    const note = document.querySelector<HTMLTextAreaElement>('#note')!;
    note.focus();
    note.setSelectionRange(5, 5);
  });
  const box = await page.locator('vaani-dictate').boundingBox();
  const result = resultOf(page, 'vaani-dictate');
  await page.locator('vaani-dictate button').click();
  await expect(page.locator('vaani-dictate')).toHaveAttribute('state', 'listening');
  await expect(page.locator('vaani-dictate [part=time]')).not.toHaveText('0:00');
  const box2 = await page.locator('vaani-dictate').boundingBox();
  const { text, duration } = (await result) as { text: string; duration: number };
  expect(text.length).toBeGreaterThan(0);
  // The utterance trimmed to its speech (with the hog on both cores).
  test.info().annotations.push({ type: 'dictation', description: JSON.stringify({ duration }) });
  expect(duration).toBeGreaterThan(0.5);
  expect(duration).toBeLessThan(2.5);
  const after = await page.evaluate(() => {
    const note = document.querySelector<HTMLTextAreaElement>('#note')!;
    const w = window as unknown as { submitted: boolean; inputs: number; shift: number };
    return { value: note.value, caret: note.selectionStart, submitted: w.submitted, inputs: w.inputs, shift: w.shift };
  });
  expect(after.value).toBe(`Hello${lead(text)}${text} world`);
  expect(after.caret).toBe(`Hello${lead(text)}${text}`.length);
  expect(after.submitted).toBe(false);
  expect(after.inputs).toBe(1);
  expect(after.shift).toBe(0);
  expect(box2).toEqual(box);
  const log = await events(page);
  test.info().annotations.push({
    type: 'events',
    description: JSON.stringify(log.map((e) => [e.type, e.detail.state, Math.round(e.at)])),
  });
  const states = log.filter((e) => e.type === 'vaani-state').map((e) => e.detail.state);
  expect(states).toEqual(['loading', 'listening', 'transcribing', 'idle']);
  await expect(page.locator('vaani-dictate [part=status]')).toHaveText('Text inserted');
  expect(errors).toEqual([]);
});

test('dictation into a contenteditable goes where the caret was, keeping the markup around it', async ({ page }) => {
  await openWidgets(
    page,
    models,
    'random',
    `<div id="editor" contenteditable="true" aria-label="Editor">Dear team,<b>regards</b></div>
     <vaani-dictate for="editor" language="en" silence-ms="1200"></vaani-dictate>`,
  );
  await page.evaluate(() => {
    const editor = document.querySelector('#editor')!;
    editor.addEventListener('focus', () => undefined);
    (editor as HTMLElement).focus();
    const range = new Range();
    range.setStart(editor.firstChild!, 'Dear team,'.length);
    document.getSelection()!.removeAllRanges();
    document.getSelection()!.addRange(range);
  });
  const result = resultOf(page, 'vaani-dictate');
  await page.locator('vaani-dictate button').click();
  const { text } = (await result) as { text: string };
  expect(await page.locator('#editor').evaluate((e) => e.textContent)).toBe(`Dear team,${lead(text)}${text} regards`);
  expect(await page.locator('#editor b').textContent()).toBe('regards');
});

test('a denied microphone and missing model files are clear error states with vaani-error', async ({ page }) => {
  await openWidgets(page, models, 'random', `<input id="f" aria-label="Field"><vaani-dictate for="f"></vaani-dictate>`);
  await recordEvents(page);
  await page.evaluate(() => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
  });
  await page.locator('vaani-dictate button').click();
  await expect(page.locator('vaani-dictate')).toHaveAttribute('state', 'error');
  await expect(page.locator('vaani-dictate [part=status]')).toHaveText(/Microphone blocked/);
  await expect(page.locator('vaani-dictate [part=status]')).toHaveAttribute('role', 'status');

  // A microphone again (the test's own), but the VAD model unreachable: the recording ends with an
  // error instead of listening for a silence it can never detect.
  await testMicrophone(page);
  await page.evaluate(() => {
    document.querySelector('vaani-dictate')!.stream = (
      window as unknown as { mic: { stream: MediaStream } }
    ).mic.stream;
  });
  await page.route(/silero_vad_v5[^/]*\.onnx/, (route) => route.fulfill({ status: 404, body: 'gone' }));
  await page.locator('vaani-dictate button').click();
  await expect(page.locator('vaani-dictate')).toHaveAttribute('state', 'error');
  await expect(page.locator('vaani-dictate [part=status]')).toHaveText(/Silero VAD model .* HTTP 404/);
  await expect(page.locator('vaani-dictate button')).toHaveAttribute('aria-pressed', 'false');
  // The model back; continuous dictation whose transcription fails ends its session with the error
  // at once (it is not kept until the user presses stop).
  await page.unroute(/silero_vad_v5[^/]*\.onnx/);
  await page.locator('vaani-dictate').evaluate((element) => {
    element.setAttribute('continuous', '');
    element.setAttribute('model', 'no-such-model');
  });
  await page.locator('vaani-dictate button').click();
  await expect(page.locator('vaani-dictate')).toHaveAttribute('state', 'listening');
  await say(page);
  await expect(page.locator('vaani-dictate')).toHaveAttribute('state', 'error', { timeout: 120_000 });
  await expect(page.locator('vaani-dictate [part=status]')).toHaveText(/no-such-model/);
  await expect(page.locator('vaani-dictate button')).toHaveAttribute('aria-pressed', 'false');

  await page.evaluate(() => {
    const ai = window.Vaani.createVaani({
      backend: 'wasm',
      models: { 'speech-tts-v1': { baseURL: '/nothing-here/' }, 'espeak-ng': { baseURL: '/nothing-here/' } },
    });
    const speak = document.createElement('vaani-speak');
    speak.vaani = ai;
    speak.setAttribute('text', 'Hello there.');
    speak.setAttribute('voice', 'en-US-female-1');
    document.querySelector('#root')!.append(speak);
  });
  await page.locator('vaani-speak [part~=play]').click();
  await expect(page.locator('vaani-speak')).toHaveAttribute('state', 'error');
  await expect(page.locator('vaani-speak [part=status]')).toHaveText(/Model files not found/);
  const errorEvents = (await events(page)).filter((e) => e.type === 'vaani-error').map((e) => [e.tag, e.detail.code]);
  expect(errorEvents).toEqual([
    ['vaani-dictate', 'mic_denied'],
    ['vaani-dictate', 'internal_error'],
    ['vaani-dictate', 'model_not_found'],
    ['vaani-speak', 'tts_plugin_failed'],
  ]);
});

test('read-aloud streams sentence by sentence, highlights the sentence being spoken, pauses and resumes', async ({
  page,
}) => {
  const errors = await openWidgets(
    page,
    models,
    'random',
    `<article id="article"><p>The first sentence is short.</p><p>The second one follows <em>right after</em> it! Is this the third?</p></article>
     <vaani-speak for="article" voice="en-US-female-1" speed="1.2"></vaani-speak>`,
  );
  await recordEvents(page);
  await page.evaluate(() => {
    const w = window as unknown as { highlights: string[] };
    w.highlights = [];
    document.addEventListener('vaani-sentence', () => {
      const highlight = CSS.highlights.get('vaani-speaking');
      w.highlights.push([...(highlight ?? [])].map((range) => (range as Range).toString()).join('|'));
    });
  });
  const result = resultOf(page, 'vaani-speak');
  await page.locator('vaani-speak [part~=play]').click();
  await expect(page.locator('vaani-speak')).toHaveAttribute('state', 'speaking');
  await page.locator('vaani-speak [part~=play]').click();
  await expect(page.locator('vaani-speak')).toHaveAttribute('state', 'paused');
  await expect(page.locator('vaani-speak [part~=play]')).toHaveAttribute('aria-label', 'Resume');
  await page.waitForTimeout(600);
  await page.locator('vaani-speak [part~=play]').click();
  const done = (await result) as { sentences: number; stopped: boolean };
  expect(done).toMatchObject({ sentences: 3, stopped: false });
  const log = await events(page);
  const sentences = log.filter((e) => e.type === 'vaani-sentence');
  expect(sentences.map((e) => e.detail.text)).toEqual([
    'The first sentence is short.',
    'The second one follows right after it!',
    'Is this the third?',
  ]);
  expect(await page.evaluate(() => (window as unknown as { highlights: string[] }).highlights)).toEqual([
    'The first sentence is short.',
    'The second one follows right after it!',
    'Is this the third?',
  ]);
  // Playback takes real time: from the first sentence to the end at least the first two sentences' audio.
  const end = log.find((e) => e.type === 'vaani-result')!.at;
  expect(end - sentences[0]!.at).toBeGreaterThan(2000);
  expect(await page.evaluate(() => CSS.highlights.get('vaani-speaking')?.size ?? 0)).toBe(0);
  const states = log.filter((e) => e.type === 'vaani-state').map((e) => e.detail.state);
  expect(states.slice(0, 2)).toEqual(['loading', 'speaking']);
  expect(states).toContain('paused');
  expect(states.at(-1)).toBe('idle');
  expect(errors).toEqual([]);
});

test('chat streams an answer, Stop ends it, the next message works; backend and tokens/s are shown', async ({
  page,
}) => {
  const errors = await openWidgets(
    page,
    models,
    'random',
    // Long enough to stop mid-way; the stopped answer may then outgrow the fixture's 2,048-token
    // context as history, which the widget handles by leaving the oldest turn out of what it sends.
    `<vaani-chat max-tokens="1500" temperature="0"></vaani-chat>`,
  );
  const chat = page.locator('vaani-chat');
  await chat.locator('textarea').fill('Tell me a long story.');
  const first = resultOf(page, 'vaani-chat');
  await chat.locator('textarea').press('Enter');
  await expect(chat).toHaveAttribute('state', 'thinking');
  await expect(chat.locator('.message.assistant .body')).not.toBeEmpty();
  await expect(chat.locator('[part~=stop]')).toBeEnabled();
  await chat.locator('[part~=stop]').click();
  const stopped = (await first) as { stopped: boolean; content: string; backend: string };
  expect(stopped.stopped).toBe(true);
  expect(stopped.backend).toBe('wasm');
  expect(stopped.content.length).toBeGreaterThan(0);
  await expect(chat.locator('[part=status]')).toHaveText('Stopped');
  await expect(chat.locator('[part~=stop]')).toBeDisabled();

  await chat.evaluate((element: VaaniChat) => element.setAttribute('max-tokens', '12'));
  const second = resultOf(page, 'vaani-chat');
  await chat.locator('textarea').fill('And now a short one.');
  await chat.locator('[part~=send]').click();
  const done = (await second) as { stopped: boolean; completionTokens: number; tokensPerSecond: number };
  expect(done.stopped).toBe(false);
  expect(done.completionTokens).toBe(12);
  expect(done.tokensPerSecond).toBeGreaterThan(0);
  await expect(chat.locator('[part=stats]')).toHaveText(/^wasm · [\d.]+ tok\/s$/);
  const roles = await chat.evaluate((element: VaaniChat) => element.messages.map((m) => m.role));
  expect(roles).toEqual(['user', 'assistant', 'user', 'assistant']);
  expect(errors).toEqual([]);
});

test('chat renders Markdown and never runs HTML from the model; read-aloud of the answer', async ({ page }) => {
  await openWidgets(page, models, 'scripted', `<vaani-chat speak voice="en-US-female-1"></vaani-chat>`);
  const chat = page.locator('vaani-chat');
  const result = resultOf(page, 'vaani-chat');
  await chat.evaluate((element: VaaniChat) => void element.send('Who are you?'));
  const { content } = (await result) as { content: string };
  expect(content).toBe(ANSWER.join(''));
  const body = chat.locator('.message.assistant .body');
  await expect(body.locator('strong')).toHaveText('Vaani');
  await expect(body.locator('li')).toHaveText(['one', 'two']);
  expect(await body.evaluate((element) => element.innerHTML)).not.toMatch(/onerror|<script/);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  const speak = chat.locator('.message.assistant vaani-speak');
  await expect(speak).toHaveAttribute('text', /^Namaste! I am Vaani, and I speak/);
  await speak.locator('[part~=play]').click();
  await expect(speak).toHaveAttribute('state', 'speaking');
  await speak.locator('[part~=stop]').click();
  await expect(speak).toHaveAttribute('state', 'idle');
});

test('the voice assistant completes a turn: hears, answers from the chat model, speaks it; latency measured', async ({
  page,
}) => {
  const errors = await openWidgets(
    page,
    models,
    // A one-sentence answer: the turn ends when it has been spoken.
    'short',
    `<vaani-voice-assistant voice="en-US-female-1" language="en" silence-ms="1200"></vaani-voice-assistant>`,
  );
  await recordEvents(page);
  const assistant = page.locator('vaani-voice-assistant');
  const result = resultOf(page, 'vaani-voice-assistant');
  await assistant.locator('[part~=talk]').click();
  await expect(assistant.locator('[part~=talk]')).toHaveAttribute('aria-pressed', 'true');
  const turn = (await result) as Record<string, number | string | boolean>;
  expect(turn.interrupted).toBe(false);
  expect(String(turn.heard).length).toBeGreaterThan(0);
  expect(turn.answer).toBe(SHORT_ANSWER.join(''));
  const t = turn as unknown as Required<AssistantTurn>;
  expect(t.speechEnd).toBeLessThan(t.detected);
  expect(t.detected).toBeLessThan(t.transcribed);
  expect(t.transcribed).toBeLessThan(t.firstToken);
  expect(t.firstToken).toBeLessThan(t.firstAudio);
  expect(t.latency).toBeCloseTo(t.firstAudio - t.speechEnd, 3);
  // The random model's transcript taken at the 300 ms pause ends the turn only where it ends a
  // sentence; else the VAD waits 1200 ms of silence after the speech.
  if (t.ended === 'silence') expect(t.detected - t.speechEnd).toBeGreaterThan(1000);
  else expect([t.ended, endsSentence(t.heard)]).toEqual(['transcript', true]);
  test
    .info()
    .annotations.push({ type: 'latency', description: `${Math.round(t.latency)} ms end of speech → first audio` });
  await expect(assistant.locator('[part=latency]')).toHaveText(/^First audio after \d+ ms$/);
  await expect(assistant.locator('.turn.user')).toHaveText(String(turn.heard));
  const messages = await assistant.evaluate((element: VaaniVoiceAssistant) => element.messages);
  expect(messages).toEqual([
    { role: 'user', content: turn.heard },
    { role: 'assistant', content: SHORT_ANSWER.join('') },
  ]);
  const states = (await events(page))
    .filter((e) => e.tag === 'vaani-voice-assistant' && e.type === 'vaani-state')
    .map((e) => e.detail.state);
  expect(states.slice(0, 6)).toEqual(['loading', 'listening', 'transcribing', 'thinking', 'speaking', 'listening']);
  await assistant.evaluate((element: VaaniVoiceAssistant) => element.end());
  await expect(assistant).toHaveAttribute('state', 'idle');
  await expect(assistant.locator('[part~=talk]')).toHaveAttribute('aria-pressed', 'false');
  expect(errors).toEqual([]);
});

test("a transcript judged final at a pause ends the turn there, and is the turn's own (not transcribed again)", async ({
  page,
}) => {
  const errors = await openWidgets(
    page,
    models,
    'short',
    // A silence far longer than the clip's trailing one: only a final transcript ends the turn.
    `<vaani-voice-assistant voice="en-US-female-1" language="en" silence-ms="60000" final-silence-ms="300"></vaani-voice-assistant>`,
  );
  const assistant = page.locator('vaani-voice-assistant');
  await assistant.evaluate((element: VaaniVoiceAssistant) => {
    // The random model's text ends no sentence: every transcript taken at a pause counts as final.
    element.endsTurn = () => true;
    type Fetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
    const ai: { fetch: Fetch } = (window as unknown as { ai: { fetch: Fetch } }).ai;
    const transcriptions: number[] = [];
    const send: Fetch = ai.fetch.bind(ai);
    ai.fetch = (input, init) => {
      if (String(input).endsWith('/audio/transcriptions')) transcriptions.push(performance.now());
      return send(input, init);
    };
    (window as unknown as { transcriptions: number[] }).transcriptions = transcriptions;
  });
  const answered = page.evaluate(
    () =>
      new Promise<AssistantTurn>((resolve, reject) => {
        const element = document.querySelector('vaani-voice-assistant')!;
        // A turn ended at a pause inside the clip is talked over (and its words lead the next one).
        element.addEventListener('vaani-result', (event) => {
          const turn = (event as CustomEvent<AssistantTurn>).detail;
          if (!turn.interrupted) resolve(turn);
        });
        element.addEventListener('vaani-error', (event) =>
          reject(new Error(JSON.stringify((event as CustomEvent).detail))),
        );
      }),
  );
  await assistant.locator('[part~=talk]').click();
  const turn = await answered;
  expect(turn.ended).toBe('transcript');
  expect(turn.heard.length).toBeGreaterThan(0);
  expect(turn.answer).toBe(SHORT_ANSWER.join(''));
  // Every transcription began at a pause, before the turn's end was detected: none after it.
  const transcriptions = await page.evaluate(() => (window as unknown as { transcriptions: number[] }).transcriptions);
  expect(transcriptions.length).toBeGreaterThan(0);
  expect(transcriptions.filter((at) => at > turn.detected)).toEqual([]);
  const messages = await assistant.evaluate((element: VaaniVoiceAssistant) => element.messages);
  expect(messages).toEqual([
    { role: 'user', content: turn.heard },
    { role: 'assistant', content: SHORT_ANSWER.join('') },
  ]);
  await expect(assistant.locator('.turn.user')).toHaveText([turn.heard]);
  await assistant.evaluate((element: VaaniVoiceAssistant) => element.end());

  // A page's endsTurn that throws counts as "not final": that turn ends at silence-ms, nothing unhandled.
  const warned: string[] = [];
  page.on('console', (message) => message.type() === 'warning' && warned.push(message.text()));
  const next = page.evaluate(() => {
    const element = document.querySelector('vaani-voice-assistant') as VaaniVoiceAssistant;
    element.endsTurn = () => {
      throw new Error('no judge here');
    };
    element.setAttribute('silence-ms', '700');
    return new Promise<string>((resolve) =>
      element.addEventListener('vaani-result', (event) => resolve((event as CustomEvent<AssistantTurn>).detail.ended)),
    );
  });
  await assistant.locator('[part~=talk]').click();
  expect(await next).toBe('silence');
  expect(warned.filter((text) => text.includes('endsTurn threw (no judge here)')).length).toBeGreaterThan(0);
  await assistant.evaluate((element: VaaniVoiceAssistant) => element.end());
  expect(errors).toEqual([]);
});

const ALL = `
  <label for="field">Your message</label><input id="field" type="text" value="">
  <vaani-dictate for="field" language="en" silence-ms="1200"></vaani-dictate>
  <p id="story">Once upon a time there was a tiny model. It spoke every language the voices cover.</p>
  <vaani-speak for="story" voice="en-US-female-1"></vaani-speak>
  <vaani-chat mic speak placeholder="Ask anything" max-tokens="16"></vaani-chat>
  <vaani-voice-assistant mode="push-to-talk" voice="en-US-female-1" language="en"></vaani-voice-assistant>`;

/** The focused element, through shadow roots: `tag` and its `part`. */
const focused = (page: Page) =>
  page.evaluate(() => {
    let element = document.activeElement;
    const path: string[] = [];
    while (element) {
      path.push(element.getAttribute('part') ?? element.localName);
      element = element.shadowRoot?.activeElement ?? null;
    }
    return path.join(' > ');
  });

test('keyboard only: every control is reached with Tab and works with Enter, Space and Escape', async ({ page }) => {
  test.setTimeout(900_000);
  // The short scripted answer: the push-to-talk turn ends when it has been spoken.
  const errors = await openWidgets(page, models, 'short', ALL);
  await page.locator('#field').focus();
  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('vaani-dictate > button');
  expect(
    await page.evaluate(() =>
      document.querySelector('vaani-dictate')!.shadowRoot!.activeElement!.matches(':focus-visible'),
    ),
  ).toBe(true);
  await page.keyboard.press('Enter');
  await expect(page.locator('#root > vaani-dictate')).toHaveAttribute('state', 'listening');
  await page.keyboard.press('Escape');
  await expect(page.locator('#root > vaani-dictate')).toHaveAttribute('state', 'idle');

  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('vaani-speak > button play');
  await page.keyboard.press('Space');
  await expect(page.locator('#root > vaani-speak')).toHaveAttribute('state', 'speaking');
  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('vaani-speak > button stop');
  await page.keyboard.press('Enter');
  await expect(page.locator('#root > vaani-speak')).toHaveAttribute('state', 'idle');

  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('vaani-chat > log');
  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('vaani-chat > input');
  await page.keyboard.type('Hello there');
  const answered = resultOf(page, 'vaani-chat');
  await page.keyboard.press('Enter');
  expect(((await answered) as { content: string }).content).toBe(SHORT_ANSWER.join(''));
  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('vaani-chat > mic > button');
  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('vaani-chat > button send');
  // Stop is disabled while nothing is being written; the answer's read-aloud buttons come before it in the log.
  await page.keyboard.press('Tab');
  expect(await focused(page)).toBe('vaani-voice-assistant > button talk');

  // Push-to-talk: hold Space on the button while the utterance plays (3–5.6 s into the microphone file).
  const turn = resultOf(page, 'vaani-voice-assistant');
  await page.keyboard.down('Space');
  await expect(page.locator('#root > vaani-voice-assistant')).toHaveAttribute('state', 'listening');
  await page.waitForTimeout(6500);
  await page.keyboard.up('Space');
  const result = (await turn) as { heard: string; answer: string; latency: number };
  expect(result.heard.length).toBeGreaterThan(0);
  expect(result.answer).toBe(SHORT_ANSWER.join(''));
  expect(result.latency).toBeGreaterThan(0);
  expect(errors).toEqual([]);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`axe finds no serious or critical violations (English and Hindi labels, ${scheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await openWidgets(
      page,
      models,
      'scripted',
      ALL +
        `<div lang="hi">${ALL.replaceAll('id="field"', 'id="field2"').replaceAll('for="field"', 'for="field2"').replaceAll('id="story"', 'id="story2"').replaceAll('for="story"', 'for="story2"')}</div>`,
    );
    await page.addStyleTag({
      content: ':root { color-scheme: light dark; } body { background: Canvas; color: CanvasText; }',
    });
    const answered = resultOf(page, 'vaani-chat');
    await page.locator('#root > vaani-chat').evaluate((element: VaaniChat) => void element.send('Hello'));
    await answered;
    expect(await page.locator('[lang=hi] > vaani-dictate button').getAttribute('aria-label')).toBe('बोलकर लिखें');
    // axe.run() in the page (legacy mode): the same rules without a blank page per scan; no frames here.
    const { violations } = await new AxeBuilder({ page }).setLegacyMode().analyze();
    const serious = violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) }));
    expect(serious).toEqual([]);
  });
}

for (const { name, width, height } of [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 375, height: 740 },
]) {
  test(`screenshot at ${name} width: nothing overflows`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await openWidgets(page, models, 'scripted', ALL);
    const answered = resultOf(page, 'vaani-chat');
    await page.locator('#root > vaani-chat').evaluate((element: VaaniChat) => void element.send('Who are you?'));
    await answered;
    const overflow = await page.evaluate(() => {
      const wide = [...document.querySelectorAll('#root > *')]
        .filter((element) => element.getBoundingClientRect().right > innerWidth + 0.5)
        .map((element) => element.localName);
      return { scrollWidth: document.documentElement.scrollWidth, innerWidth, wide };
    });
    expect(overflow.wide).toEqual([]);
    expect(overflow.scrollWidth).toBeLessThanOrEqual(overflow.innerWidth);
    await page.screenshot({ path: test.info().outputPath(`widgets-${name}.png`), fullPage: true });
    await page.screenshot({ path: `test-results/widgets-${name}.png`, fullPage: true });
  });
}

/** A microphone the test speaks into: the shared recording, played into a MediaStream whenever asked. */
async function testMicrophone(page: Page) {
  await page.evaluate(async () => {
    const context = new AudioContext({ sampleRate: 48000 });
    const destination = context.createMediaStreamDestination();
    const bytes = await (await fetch('/shared/audio/common_voice_en_59751.mp3')).arrayBuffer();
    const buffer = await context.decodeAudioData(bytes);
    // Where the clip's speech is (10 ms blocks louder than 5 % of the loudest), in seconds.
    const samples = buffer.getChannelData(0);
    const block = buffer.sampleRate / 100;
    const levels = Array.from({ length: Math.floor(samples.length / block) }, (_, i) =>
      Math.sqrt(samples.subarray(i * block, (i + 1) * block).reduce((sum, v) => sum + v * v, 0) / block),
    );
    const loud = Math.max(...levels) * 0.05;
    const speech = [levels.findIndex((v) => v > loud) / 100, (levels.findLastIndex((v) => v > loud) + 1) / 100];
    await context.resume();
    (window as unknown as { mic: unknown }).mic = {
      stream: destination.stream,
      // Plays the clip; resolves when it ended with when its speech started and ended (performance.now() ms,
      // by the audio clock: scheduled ahead, so a busy main thread does not move it).
      say: () =>
        new Promise<{ start: number; end: number }>((resolve) => {
          const source = context.createBufferSource();
          source.buffer = buffer;
          source.connect(destination);
          const at = context.currentTime + 0.1;
          source.onended = () => {
            const stamp = context.getOutputTimestamp();
            const time = (t: number) => stamp.performanceTime! + (at + t - stamp.contextTime!) * 1000;
            resolve({ start: time(speech[0]!), end: time(speech[1]!) });
          };
          source.start(at);
        }),
    };
  });
}

const say = (page: Page) =>
  page.evaluate(() => (window as unknown as { mic: { say(): Promise<{ start: number; end: number }> } }).mic.say());

test('continuous dictation: each of two utterances goes in as it is transcribed, the microphone open between them', async ({
  page,
}) => {
  test.setTimeout(900_000);
  await openWidgets(
    page,
    models,
    'random',
    `<textarea id="note" aria-label="Note">Start:</textarea><vaani-dictate for="note" continuous language="en" silence-ms="1200"></vaani-dictate>`,
  );
  await testMicrophone(page);
  await recordEvents(page);
  await page.evaluate(() => {
    document.querySelector('vaani-dictate')!.stream = (
      window as unknown as { mic: { stream: MediaStream } }
    ).mic.stream;
  });
  await page.locator('#note').focus();
  await page.keyboard.press('End');
  await page.locator('vaani-dictate button').click();
  await expect(page.locator('vaani-dictate')).toHaveAttribute('state', 'listening');
  const results = async () => (await events(page)).filter((e) => e.type === 'vaani-result');
  await say(page);
  await expect.poll(async () => (await results()).length, { timeout: 400_000 }).toBe(1);
  const [first] = await results();
  expect(await page.locator('#note').inputValue()).toBe(
    `Start:${lead(String(first!.detail.text))}${String(first!.detail.text)}`,
  );
  // Still listening (a new recording: its clock restarted), still the stop button. The second
  // recording is open once its own 'listening' came (a word said before it would not be heard).
  const listening = async () =>
    (await events(page)).filter((e) => e.type === 'vaani-state' && e.detail.state === 'listening').length;
  await expect.poll(listening, { timeout: 120_000 }).toBe(2);
  await expect(page.locator('vaani-dictate')).toHaveAttribute('state', 'listening');
  await expect(page.locator('vaani-dictate button')).toHaveAttribute('aria-label', 'Stop dictating');
  await expect(page.locator('vaani-dictate button')).toHaveAttribute('aria-pressed', 'true');
  // A second utterance in the same session: its text goes in after the first.
  await say(page);
  await expect.poll(async () => (await results()).length, { timeout: 400_000 }).toBe(2);
  const [, second] = await results();
  expect(await page.locator('#note').inputValue()).toBe(
    `Start:${lead(String(first!.detail.text))}${String(first!.detail.text)}${lead(String(second!.detail.text))}${String(second!.detail.text)}`,
  );
  await expect(page.locator('vaani-dictate')).toHaveAttribute('state', 'listening');
  const states = (await events(page)).filter((e) => e.type === 'vaani-state').map((e) => e.detail.state);
  expect(states).toEqual(['loading', 'listening', 'listening', 'listening']);
  // Pressed again: the open recording (no speech in it) ends and so does the session.
  await page.locator('vaani-dictate button').click();
  await expect(page.locator('vaani-dictate')).toHaveAttribute('state', 'idle');
  await expect(page.locator('vaani-dictate button')).toHaveAttribute('aria-pressed', 'false');
  await expect(page.locator('vaani-dictate button')).toHaveAttribute('aria-label', 'Dictate');
  expect((await results()).length).toBe(2);
});

test('barge-in: speaking over the answer stops its playback and the next turn answers the new utterance', async ({
  page,
}) => {
  test.setTimeout(900_000);
  const errors = await openWidgets(
    page,
    models,
    'scripted',
    `<vaani-voice-assistant voice="en-US-female-1" language="en" silence-ms="1200"></vaani-voice-assistant>`,
  );
  await testMicrophone(page);
  await recordEvents(page);
  hog.start();
  const assistant = page.locator('vaani-voice-assistant');
  await assistant.evaluate((element: VaaniVoiceAssistant) => {
    element.stream = (window as unknown as { mic: { stream: MediaStream } }).mic.stream;
  });
  await assistant.locator('[part~=talk]').click();
  await expect(assistant).toHaveAttribute('state', 'listening');
  await say(page);
  await expect(assistant).toHaveAttribute('state', 'speaking', { timeout: 400_000 });
  const bargeIn = await page.evaluate(() => performance.now());
  const spoken = await say(page);
  // Two answers, or an error: either ends the wait (a failed turn shows itself rather than a timeout).
  await page
    .waitForFunction(
      () => {
        const log = (window as unknown as { events: { type: string }[] }).events;
        return log.filter((e) => e.type === 'vaani-result').length >= 2 || log.some((e) => e.type === 'vaani-error');
      },
      undefined,
      { timeout: 400_000, polling: 500 },
    )
    .catch(() => undefined);
  const log = await events(page);
  test.info().annotations.push({
    type: 'barge-in',
    description: JSON.stringify({ spoken, log: log.map((e) => [e.type, e.detail, Math.round(e.at)]) }),
  });
  expect(log.filter((e) => e.type === 'vaani-error').map((e) => e.detail)).toEqual([]);
  expect(log.filter((e) => e.type === 'vaani-result').length, JSON.stringify(log)).toBe(2);
  const [first, second] = (await events(page)).filter((e) => e.type === 'vaani-result');
  const one = first!.detail as unknown as AssistantTurn;
  const two = second!.detail as unknown as AssistantTurn;
  expect(one.interrupted).toBe(true);
  expect(one.firstAudio).toBeLessThan(bargeIn);
  expect(first!.at).toBeGreaterThan(bargeIn);
  // The first answer's playback stopped: its sentences were cut off before the whole answer was spoken.
  expect(one.answer).toBe(ANSWER.join(''));
  expect(two.interrupted).toBe(false);
  expect(two.heard.length).toBeGreaterThan(0);
  expect(two.answer).toBe(ANSWER.join(''));
  expect(two.speechEnd).toBeGreaterThan(bargeIn);
  const states = (await events(page))
    .filter((e) => e.type === 'vaani-state' && e.at > bargeIn)
    .map((e) => e.detail.state);
  expect(states[0]).toBe('listening');
  const messages = await assistant.evaluate((element: VaaniVoiceAssistant) => element.messages.map((m) => m.role));
  expect(messages).toEqual(['user', 'assistant', 'user', 'assistant']);
  await assistant.evaluate((element: VaaniVoiceAssistant) => element.end());
  expect(errors).toEqual([]);
});
