import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { Reference, referenceText } from '../fixtures/indic-conformer/reference';
import {
  BUILT_INT8_URL,
  ensureBuiltInt8IndicConformer,
  ensureTinyIndicConformer,
  FIXTURE_URL as INDIC_URL,
} from '../fixtures/indic-conformer/ensure';
import { scriptRanges } from '../fixtures/indic-conformer/vocab';
import { convert, WAV_16K_MONO } from '../fixtures/whisper/audio';
import { ensureTinyWhisper, FIXTURE_ROOT, FIXTURE_URL as WHISPER_ROOT } from '../fixtures/whisper/ensure';
import { wavSamples } from '../fixtures/whisper/reference';
import { readFile } from 'node:fs/promises';
import { openHarness } from './support/page';
import { INDIC_LANGUAGES } from '../../src/catalogue/languages/indic-conformer';
import { writeMoonshineFixture } from '../fixtures/moonshine/files';
import { referenceText as shrutiText } from '../fixtures/moonshine/reference';

const JFK = 'audio/jfk-16k.wav';
const JFK_X4 = 'audio/jfk-x4.wav';

interface Posted {
  status: number;
  type: string | null;
  body: string;
}

/**
 * POSTs multipart requests through one Vaani whose speech-stt-v1 is the fixtures: Whisper,
 * IndicConformer, and a compact per-language model in sherpa-onnx's Moonshine layout as Shruti for
 * Tamil and Urdu (Urdu routed to it by `languages`, Tamil only when a request says engine=shruti).
 */
function post(
  page: Page,
  requests: { path?: string; audio: string; fields: Record<string, string | string[]> }[],
  indic: Record<string, unknown> = {},
): Promise<Posted[]> {
  return page.evaluate(
    async ({ whisper, indicURL, shrutiURL, root, requests, indic }) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: {
          'speech-stt-v1': {
            whisper: { baseURL: whisper, dtype: 'fp32' },
            indic: { baseURL: indicURL, dtype: 'fp32', ...indic },
            shruti: { ta: { baseURL: shrutiURL }, ur: { baseURL: shrutiURL } },
            languages: { ur: 'shruti' },
          },
        },
      });
      const out = [];
      for (const request of requests) {
        const form = new FormData();
        const bytes = await (await fetch(`${root}${request.audio}`)).blob();
        form.set('file', new File([bytes], request.audio.split('/').pop()!));
        for (const [key, value] of Object.entries({ model: 'speech-stt-v1', ...request.fields }))
          for (const item of [value].flat()) form.append(key, item);
        const response = await ai.fetch(request.path ?? '/v1/audio/transcriptions', {
          method: 'POST',
          headers: { authorization: 'Bearer k' },
          body: form,
        });
        out.push({ status: response.status, type: response.headers.get('content-type'), body: await response.text() });
      }
      ai.dispose();
      return out;
    },
    {
      whisper: `${WHISPER_ROOT}tiny/`,
      indicURL: INDIC_URL,
      shrutiURL: SHRUTI_URL,
      root: WHISPER_ROOT,
      requests,
      indic,
    },
  );
}

let reference: Reference;
const shruti = writeMoonshineFixture(process.cwd());
const SHRUTI_URL = shruti.url;
let jfk: Float32Array;
let jfkX4: Float32Array;

const inScript = (text: string, language: string) => {
  const ranges = scriptRanges(language);
  return [...text].every(
    (ch) => ch === ' ' || ranges.some(([a, b]) => ch.codePointAt(0)! >= a && ch.codePointAt(0)! <= b),
  );
};

test.beforeAll(async () => {
  const dir = await ensureTinyIndicConformer();
  await ensureBuiltInt8IndicConformer();
  await ensureTinyWhisper();
  const json = async (file: string) => JSON.parse(await readFile(join(dir, 'assets', file), 'utf8'));
  reference = new Reference(dir, await json('vocab.json'), await json('language_masks.json'));
  jfk = await wavSamples(convert('jfk.flac', join(FIXTURE_ROOT, JFK), WAV_16K_MONO));
  jfkX4 = await wavSamples(
    convert('jfk.flac', join(FIXTURE_ROOT, JFK_X4), ['-af', 'aloop=loop=3:size=485100', ...WAV_16K_MONO]),
  );
});

const cache = new Map<string, Promise<string>>();
/** The plain loop's text for one audio, language and decoder (computed once per run). */
const expectedText = (audio: 'jfk' | 'jfkX4', language: string, decoding: 'ctc' | 'rnnt' = 'ctc') => {
  const key = `${audio}/${language}/${decoding}`;
  if (!cache.has(key)) cache.set(key, referenceText(reference, audio === 'jfk' ? jfk : jfkX4, language, decoding));
  return cache.get(key)!;
};

test.describe('speech-stt-v1 runs IndicConformer in the page for the 22 scheduled languages', () => {
  test.describe.configure({ timeout: 360_000 });

  test("Hindi, Tamil, Santali: the plain loop's text in each script; verbose_json, words, srt, vtt; bad choices are 400s", async ({
    page,
  }) => {
    const errors = await openHarness(page);
    const answers = await post(page, [
      { audio: JFK, fields: { language: 'hi', response_format: 'text' } },
      { audio: JFK, fields: { language: 'ta', response_format: 'text' } },
      { audio: JFK, fields: { language: 'sat', response_format: 'text' } },
      {
        audio: JFK,
        fields: { language: 'hi', response_format: 'verbose_json', 'timestamp_granularities[]': ['word', 'segment'] },
      },
      { audio: JFK, fields: { language: 'ta', response_format: 'srt' } },
      { audio: JFK, fields: { language: 'ta', response_format: 'vtt' } },
      { audio: JFK, fields: { language: 'en', engine: 'indic-conformer' } },
      { path: '/v1/audio/translations', audio: JFK, fields: { engine: 'indic-conformer' } },
      { audio: JFK, fields: { language: 'hi', engine: 'kaldi' } },
      { audio: JFK, fields: { language: 'hi', decoding: 'beam' } },
      { audio: JFK, fields: { language: 'hi', 'timestamp_granularities[]': 'sentence' } },
      { audio: JFK, fields: { language: 'hi', response_format: 'verbose_json' } },
      { audio: JFK, fields: { language: 'ta', engine: 'shruti', response_format: 'verbose_json' } },
      { audio: JFK, fields: { language: 'ur', response_format: 'verbose_json' } },
      { audio: JFK, fields: { language: 'fr', engine: 'shruti' } },
    ]);
    expect(errors).toEqual([]);
    for (const [i, language] of ['hi', 'ta', 'sat'].entries()) {
      const answer = answers[i]!;
      expect(answer.status, answer.body).toBe(200);
      const expected = await expectedText('jfk', language);
      expect(expected.length).toBeGreaterThan(5);
      expect(answer.body).toBe(expected);
      expect(inScript(answer.body, language)).toBe(true);
      expect(answer.body).not.toContain('\ufffd');
    }

    const transcript = JSON.parse(answers[3]!.body);
    expect(transcript).toMatchObject({
      task: 'transcribe',
      language: 'hindi',
      duration: expect.closeTo(11, 0),
      text: answers[0]!.body,
      engine: { name: 'indic-conformer', language_source: 'request' },
    });
    expect(transcript.segments.length).toBeGreaterThan(1);
    expect(
      transcript.segments
        .map((s: { text: string }) => s.text)
        .join('')
        .trim(),
    ).toBe(transcript.text);
    for (const [i, segment] of transcript.segments.entries()) {
      expect(segment.end).toBeGreaterThan(segment.start);
      expect(segment.end).toBeLessThanOrEqual(transcript.duration);
      if (i > 0) expect(segment.start).toBeGreaterThanOrEqual(transcript.segments[i - 1].end);
      expect(segment.no_speech_prob).toBeGreaterThanOrEqual(0);
      expect(segment.no_speech_prob).toBeLessThanOrEqual(1);
    }
    const noSpeech = transcript.segments.map((s: { no_speech_prob: number }) => s.no_speech_prob);
    expect(noSpeech.reduce((a: number, b: number) => a + b, 0) / noSpeech.length).toBeLessThan(0.5);
    expect(transcript.words.map((w: { word: string }) => w.word).join(' ')).toBe(transcript.text);
    for (const word of transcript.words) {
      expect(word.end).toBeGreaterThan(word.start);
      const inSegment = transcript.segments.some(
        (s: { start: number; end: number }) => word.start >= s.start - 0.05 && word.start < s.end,
      );
      expect(inSegment, JSON.stringify(word)).toBe(true);
    }
    expect(JSON.parse(answers[11]!.body).words).toBeUndefined();

    const [srt, vtt] = [answers[4]!, answers[5]!];
    expect(srt.status).toBe(200);
    expect(srt.body).toMatch(/^1\n00:00:\d\d,\d{3} --> 00:00:\d\d,\d{3}\n\S/);
    expect(vtt.body).toMatch(/^WEBVTT\n\n00:00:\d\d\.\d{3} --> /);
    const cueText = srt.body.split('\n').filter((line) => !/^\d+$|-->|^$/.test(line));
    expect(cueText.join(' ')).toBe(answers[1]!.body);

    expect(answers.slice(6, 11).map((a) => [a.status, JSON.parse(a.body).error.param])).toEqual([
      [400, 'language'],
      [400, 'engine'],
      [400, 'engine'],
      [400, 'decoding'],
      [400, 'timestamp_granularities[0]'],
    ]);

    // The compact per-language model: the sherpa-onnx Moonshine loop's text in Node, per request or per language.
    const shrutiExpected = await shrutiText(shruti.dir, jfk);
    expect(shrutiExpected.length).toBeGreaterThan(5);
    for (const [answer, language] of [
      [answers[12]!, 'tamil'],
      [answers[13]!, 'urdu'],
    ] as const) {
      expect(answer.status, answer.body).toBe(200);
      const heard = JSON.parse(answer.body);
      expect(heard).toMatchObject({
        text: shrutiExpected,
        language,
        engine: { name: 'shruti', language_source: 'request' },
      });
      expect(heard.duration).toBeCloseTo(11, 0);
      expect(heard.segments.map((s: { text: string }) => s.text.trim()).join(' ')).toBe(heard.text);
    }
    expect([answers[14]!.status, JSON.parse(answers[14]!.body).error.param]).toEqual([400, 'language']);
  });

  test('long audio in VAD windows of at most 15 s with times on the original clock; RNN-T per request and per config', async ({
    page,
  }) => {
    await openHarness(page);
    const [long, rnnt] = await post(page, [
      {
        audio: JFK_X4,
        fields: { language: 'sat', response_format: 'verbose_json', 'timestamp_granularities[]': 'word' },
      },
      { audio: JFK, fields: { language: 'hi', decoding: 'rnnt', response_format: 'text' } },
    ]);
    expect(long!.status, long!.body).toBe(200);
    const transcript = JSON.parse(long!.body);
    expect(transcript.duration).toBeCloseTo(44, 0);
    expect(transcript.text).toBe(await expectedText('jfkX4', 'sat'));
    expect(transcript.segments.at(-1).end).toBeGreaterThan(35);
    const last = transcript.words.at(-1);
    expect(last.end).toBeGreaterThan(35);
    expect(last.end).toBeLessThanOrEqual(transcript.duration + 0.05);

    const expected = await expectedText('jfk', 'hi', 'rnnt');
    expect(rnnt!.status, rnnt!.body).toBe(200);
    expect(rnnt!.body).toBe(expected);
    const [perConfig] = await post(page, [{ audio: JFK, fields: { language: 'hi', response_format: 'text' } }], {
      decoding: 'rnnt',
    });
    expect(perConfig!.body).toBe(expected);
    // What `vaani pull speech-stt-v1 --indic --int8` wrote loads on the int8 path, its manifest checked.
    const [built] = await post(page, [{ audio: JFK, fields: { language: 'ta', response_format: 'text' } }], {
      baseURL: BUILT_INT8_URL,
      dtype: 'int8',
    });
    expect(built!.status, built!.body).toBe(200);
    expect(built!.body.trim().length).toBeGreaterThan(5);
    expect(inScript(built!.body.trim(), 'ta')).toBe(true);
  });

  test('stream: true through the openai SDK: a delta per 15 s window, joined they are the whole text', async ({
    page,
  }) => {
    await openHarness(page);
    const events = await page.evaluate(
      async ({ whisper, indicURL, audio }) => {
        const ai = window.Vaani.createVaani({
          backend: 'wasm',
          models: {
            'speech-stt-v1': {
              whisper: { baseURL: whisper, dtype: 'fp32' },
              indic: { baseURL: indicURL, dtype: 'fp32' },
            },
          },
        });
        // Default retries.
        const client = new window.OpenAI({
          baseURL: ai.baseURL,
          apiKey: 'k',
          fetch: ai.fetch,
          dangerouslyAllowBrowser: true,
        });
        const file = new File([await (await fetch(audio)).blob()], 'talk.wav', { type: 'audio/wav' });
        const stream = await client.audio.transcriptions.create({
          file,
          model: 'speech-stt-v1',
          language: 'sat',
          stream: true,
        } as never);
        const out: { type: string; delta?: string; text?: string }[] = [];
        for await (const event of stream as unknown as AsyncIterable<{ type: string }>) out.push(event);
        ai.dispose();
        return out;
      },
      { whisper: `${WHISPER_ROOT}tiny/`, indicURL: INDIC_URL, audio: `${WHISPER_ROOT}${JFK_X4}` },
    );
    const deltas = events.filter((event) => event.type === 'transcript.text.delta');
    const done = events.at(-1)!;
    expect(done.type).toBe('transcript.text.done');
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((event) => event.delta).join('')).toBe(done.text);
    expect(done.text).toBe(await expectedText('jfkX4', 'sat'));
  });
});

test.describe('routing between IndicConformer and Whisper', () => {
  test.describe.configure({ timeout: 360_000 });

  test('English and translations on Whisper, engine and per-language overrides, detection, /v1/models', async ({
    page,
  }) => {
    await openHarness(page);
    const [english, translation, forced, detected] = await post(page, [
      { audio: JFK, fields: { language: 'en', response_format: 'verbose_json' } },
      { path: '/v1/audio/translations', audio: JFK, fields: { language: 'hi', response_format: 'verbose_json' } },
      { audio: JFK, fields: { language: 'hi', engine: 'whisper', response_format: 'verbose_json' } },
      { audio: JFK, fields: { response_format: 'verbose_json' } },
    ]);
    for (const answer of [english, translation, forced]) {
      expect(answer!.status, answer!.body).toBe(200);
      expect(JSON.parse(answer!.body).engine).toEqual({ name: 'whisper', language_source: 'request' });
    }
    expect(JSON.parse(translation!.body).task).toBe('translate');
    expect(detected!.status, detected!.body).toBe(200);
    const heard = JSON.parse(detected!.body);
    expect(heard.engine.language_source).toBe('detected');
    const indicNames = INDIC_LANGUAGES.map(([, name]) => name);
    expect(heard.engine.name).toBe(indicNames.includes(heard.language) ? 'indic-conformer' : 'whisper');

    const { engine, model } = await page.evaluate(async (whisper) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: { 'speech-stt-v1': { whisper: { baseURL: whisper, dtype: 'fp32' }, languages: { hi: 'whisper' } } },
      });
      const form = new FormData();
      form.set('file', new File([await (await fetch(`${whisper}../audio/jfk-16k.wav`)).blob()], 'jfk.wav'));
      form.set('model', 'speech-stt-v1');
      form.set('language', 'hi');
      form.set('response_format', 'verbose_json');
      const headers = { authorization: 'Bearer k' };
      const response = await ai.fetch('/v1/audio/transcriptions', { method: 'POST', headers, body: form });
      const engine = (await response.json()).engine;
      const model = await (await ai.fetch('/v1/models/speech-stt-v1', { headers })).json();
      ai.dispose();
      return { engine, model };
    }, `${WHISPER_ROOT}tiny/`);
    expect(engine).toEqual({ name: 'whisper', language_source: 'request' });
    for (const [code] of INDIC_LANGUAGES) {
      expect(model.languages).toContain(code);
      expect(model.language_engines[code]).toBe(code === 'hi' ? 'whisper' : 'indic-conformer');
    }
    expect(model.language_engines.en).toBe('whisper');
    expect(model.language_engines.fr).toBe('whisper');
  });

  test("a metered phone: a Hindi request asks before IndicConformer's files, an Urdu one before its Shruti model; no byte of them before yes", async ({
    page,
  }) => {
    await page.addInitScript(() => {
      const define = (name: string, value: unknown) =>
        Object.defineProperty(Navigator.prototype, name, { get: () => value, configurable: true });
      define('deviceMemory', 8);
      define('connection', { saveData: true, effectiveType: '4g', downlink: 10 });
    });
    const errors = await openHarness(page);
    const indicFiles: string[] = [];
    page.context().on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith(INDIC_URL) && !path.endsWith('vaani-manifest.json')) indicFiles.push(path);
    });
    const run = (indicYes: boolean) =>
      page.evaluate(
        async ({ whisper, indicURL, shrutiURL, indicYes }) => {
          const w = window as unknown as { stt?: import('../../src/index').Vaani; asked: unknown[]; yes: boolean };
          w.yes = indicYes;
          w.asked ??= [];
          w.stt ??= window.Vaani.createVaani({
            backend: 'wasm',
            models: {
              'speech-stt-v1': {
                whisper: { baseURL: whisper, dtype: 'fp32' },
                indic: { baseURL: indicURL, dtype: 'fp32' },
                shruti: { ur: { baseURL: shrutiURL } },
                languages: { ur: 'shruti' },
              },
            },
            // Whisper's and Shruti's files are let through; IndicConformer's wait for the test's answer.
            fit: {
              confirm: (plan) => {
                w.asked.push({ part: plan.part, for: plan.consent.for, reason: plan.consent.reason });
                return plan.part?.engine !== 'indic-conformer' || w.yes;
              },
            },
          });
          const ai = w.stt;
          const hindi = await ai.plan('voice', { language: 'hi' });
          const english = await ai.plan('speech-stt-v1', { language: 'en' });
          const form = new FormData();
          form.set('file', new File([await (await fetch(`${whisper}../audio/jfk-16k.wav`)).blob()], 'jfk.wav'));
          form.set('model', 'speech-stt-v1');
          form.set('language', 'hi');
          const response = await ai.fetch('/v1/audio/transcriptions', {
            method: 'POST',
            headers: { authorization: 'Bearer k' },
            body: form,
          });
          const urdu = new FormData();
          urdu.set('file', form.get('file')!);
          urdu.set('model', 'speech-stt-v1');
          urdu.set('language', 'ur');
          urdu.set('response_format', 'verbose_json');
          const viaShruti = await ai.fetch('/v1/audio/transcriptions', {
            method: 'POST',
            headers: { authorization: 'Bearer k' },
            body: urdu,
          });
          const models = await ai.fetch('/v1/models/speech-stt-v1?language=ta', {
            headers: { authorization: 'Bearer k' },
          });
          return {
            hindi: { part: hindi.part, source: hindi.decision.run === 'local' ? hindi.decision.source : null },
            english: english.part,
            status: response.status,
            body: await response.json(),
            tamil: (await models.json()).x_vaani?.part,
            urdu: { status: viaShruti.status, engine: (await viaShruti.json()).engine?.name },
            asked: w.asked,
          };
        },
        { whisper: `${WHISPER_ROOT}tiny/`, indicURL: INDIC_URL, shrutiURL: SHRUTI_URL, indicYes },
      );
    const declined = await run(false);
    expect(declined.hindi).toEqual({
      part: { engine: 'indic-conformer', language: 'hi' },
      source: expect.stringContaining(INDIC_URL),
    });
    expect(declined.english).toEqual({ engine: 'whisper', language: 'en' });
    expect(declined.tamil).toEqual({ engine: 'indic-conformer', language: 'ta' });
    expect(declined.status).toBe(503);
    expect(declined.body.error).toMatchObject({ code: 'download_declined', param: 'model' });
    expect(declined.body.error.message).toMatch(/^speech-stt-v1 \(IndicConformer\) needs /);
    expect(declined.asked).toEqual([
      {
        part: { engine: 'indic-conformer', language: null },
        for: 'transcription',
        reason: expect.stringMatching(/Save-Data is on/),
      },
      // The fixture's folder lists no sizes: an unknown download on Save-Data is asked.
      {
        part: { engine: 'shruti', language: 'ur' },
        for: 'transcription',
        reason: expect.stringMatching(
          /^speech-stt-v1 \(Shruti, ur\) needs a download of unknown size: Save-Data is on/,
        ),
      },
    ]);
    expect(declined.urdu).toEqual({ status: 200, engine: 'shruti' });
    expect(indicFiles).toEqual([]);

    await page.evaluate(() => (window as unknown as { stt: import('../../src/index').Vaani }).stt.plan.reset('voice'));
    const accepted = await run(true);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.text).toBe(await expectedText('jfk', 'hi'));
    expect(accepted.asked).toHaveLength(4);
    expect(indicFiles.length).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });
});
