import { expect, test, type Page } from '@playwright/test';
import { ensureTinyWhisper, FIXTURE_URL } from '../fixtures/whisper/ensure';
import { longAudio, TALK, type LongAudio } from '../fixtures/whisper/long-audio';
import { checkSrt, checkTimeline, checkVtt, type Cue } from '../support/subtitles';
import { openHarness } from './support/page';

interface Answer {
  status: number;
  body: string;
}

/**
 * Sends each request through the official openai SDK (its default retries) to one fresh Vaani
 * whose speech-stt-v1 is the random-weight Whisper fixture; `route` picks transcriptions or translations.
 */
function viaSdk(page: Page, audio: string, requests: Record<string, unknown>[]): Promise<Answer[]> {
  return page.evaluate(
    async ({ model, audio, requests }) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: { 'speech-stt-v1': { baseURL: model, dtype: 'fp32', indic: false } },
      });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
      });
      const bytes = await (await fetch(audio)).blob();
      const out = [];
      for (const { route, ...fields } of requests) {
        const file = new File([bytes], 'talk.wav', { type: 'audio/wav' });
        const body = { file, model: 'speech-stt-v1', ...fields } as never;
        try {
          const api = route === 'translations' ? client.audio.translations : client.audio.transcriptions;
          const answer: unknown = await api.create(body);
          out.push({ status: 200, body: typeof answer === 'string' ? answer : JSON.stringify(answer) });
        } catch (error) {
          const { status, error: detail } = error as { status: number; error: unknown };
          out.push({ status, body: JSON.stringify({ error: detail }) });
        }
      }
      ai.dispose();
      return out;
    },
    { model: `${FIXTURE_URL}tiny/`, audio, requests },
  );
}

interface Timed {
  start: number;
  end: number;
  text: string;
}

/** Every cue starts in speech (a real clip, give or take the VAD's padding): the pauses were never decoded. */
function startsInSpeech(cues: Timed[], talk: LongAudio) {
  for (const cue of cues)
    expect(
      talk.speech.some(([start, end]) => cue.start >= start - 1 && cue.start <= end + 1),
      `cue at ${cue.start}–${cue.end} s starts in a pause (speech at ${JSON.stringify(talk.speech)})`,
    ).toBe(true);
}

let talk: LongAudio;
let silence: LongAudio;

test.beforeAll(async () => {
  await ensureTinyWhisper();
  talk = longAudio('talk-110s', TALK);
  silence = longAudio('silence-40s', [{ silence: 40 }]);
});

test('a 110 s noisy talk with long pauses, VAD-chunked, as segments, SRT and VTT: valid times, cues that parse, pauses skipped', async ({
  page,
}) => {
  const errors = await openHarness(page);
  const auto = { chunking_strategy: 'auto', language: 'en' };
  test.setTimeout(240_000);
  // json and text are the verbose transcript's text; the noise-only test below checks them VAD-chunked.
  const [verbose, srt, vtt, vad] = await viaSdk(page, talk.url, [
    { ...auto, response_format: 'verbose_json' },
    { ...auto, response_format: 'srt' },
    { ...auto, response_format: 'vtt' },
    {
      route: 'translations',
      response_format: 'verbose_json',
      chunking_strategy: { type: 'server_vad', prefix_padding_ms: 100, silence_duration_ms: 500, threshold: 0.6 },
    },
  ]);
  expect(errors).toEqual([]);
  for (const answer of [verbose, srt, vtt, vad]) expect(answer!.status, answer!.body).toBe(200);

  const transcript = JSON.parse(verbose!.body);
  expect(transcript.duration).toBeCloseTo(talk.duration, 2);
  expect(transcript.segments.length).toBeGreaterThan(0);
  checkTimeline(transcript.segments, transcript.duration);
  startsInSpeech(transcript.segments, talk);
  expect(transcript.text).toBe(
    transcript.segments
      .map((s: Timed) => s.text)
      .join('')
      .trim(),
  );

  for (const cues of [checkSrt(srt!.body), checkVtt(vtt!.body)] as Cue[][]) {
    expect(cues.length).toBeGreaterThan(0);
    checkTimeline(cues, talk.duration);
    startsInSpeech(cues, talk);
  }

  const translated = JSON.parse(vad!.body);
  expect(translated.task).toBe('translate');
  checkTimeline(translated.segments, translated.duration);
  startsInSpeech(translated.segments, talk);
});

test('noise-only audio, VAD-chunked, gives an empty transcript in every format; a bad chunking_strategy is a 400 and the next request works', async ({
  page,
}) => {
  await openHarness(page);
  const auto = { chunking_strategy: 'auto', language: 'en' };
  const [verbose, json, srt, vtt, bad, next] = await viaSdk(page, silence.url, [
    { ...auto, response_format: 'verbose_json' },
    { ...auto, response_format: 'json' },
    { ...auto, response_format: 'srt' },
    { ...auto, response_format: 'vtt' },
    { chunking_strategy: 'none' },
    { ...auto, response_format: 'text' },
  ]);
  const transcript = JSON.parse(verbose!.body);
  expect(transcript).toMatchObject({ text: '', segments: [] });
  expect(transcript.duration).toBeCloseTo(40, 2);
  expect(JSON.parse(json!.body)).toEqual({ text: '' });
  expect(srt!.body).toBe('');
  expect(checkVtt(vtt!.body)).toEqual([]);
  expect(bad!.status).toBe(400);
  expect(JSON.parse(bad!.body).error).toMatchObject({ param: 'chunking_strategy' });
  expect(next).toEqual({ status: 200, body: '' });
});

test('aborting a long transcription stops it in the worker: the next request is answered long before the aborted one would have ended', async ({
  page,
}) => {
  // The aborted job is five talks long (under the 25 MiB upload limit), so a worker that went on with it would hold the next request
  // for about five runs of the timed one: a margin no load on the machine closes.
  const five = longAudio('talk-5x', Array.from({ length: 5 }, () => TALK).flat());
  await openHarness(page);
  const result = await page.evaluate(
    async ({ model, audio, longer }) => {
      const ai = window.Vaani.createVaani({
        backend: 'wasm',
        models: { 'speech-stt-v1': { baseURL: model, dtype: 'fp32', indic: false } },
      });
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: ai.fetch,
        dangerouslyAllowBrowser: true,
        maxRetries: 0,
      });
      const bytes = await (await fetch(audio)).blob();
      const fiveBytes = await (await fetch(longer)).blob();
      const file = () => new File([bytes], 'talk.wav');
      // On the tiny fixture the Silero pass over the whole file is most of the work: the long job is VAD-chunked.
      const long = (of = bytes) => ({
        file: new File([of], 'talk.wav'),
        model: 'speech-stt-v1',
        language: 'en',
        chunking_strategy: 'auto',
      });
      const short = () => ({ file: file(), model: 'speech-stt-v1', language: 'en' });
      const timed = async (run: () => Promise<unknown>) => {
        const started = performance.now();
        await run();
        return performance.now() - started;
      };
      await client.audio.transcriptions.create(short() as never); // loads the model
      const alone = await timed(() => client.audio.transcriptions.create(short() as never));
      const whole = await timed(() => client.audio.transcriptions.create(long() as never));
      const controller = new AbortController();
      const started = performance.now();
      const aborted = client.audio.transcriptions.create(long(fiveBytes) as never, { signal: controller.signal }).then(
        () => 'answered',
        (error: Error) => (error instanceof window.OpenAI.APIUserAbortError ? 'aborted' : String(error)),
      );
      setTimeout(() => controller.abort(), whole / 4);
      const name = await aborted;
      const next = (await client.audio.transcriptions.create(short() as never)) as unknown as { text: string };
      const nextDone = performance.now() - started;
      ai.dispose();

      return { whole, alone, name, nextDone, next: typeof next.text };
    },
    { model: `${FIXTURE_URL}tiny/`, audio: talk.url, longer: five.url },
  );
  expect(result.name).toBe('aborted');
  expect(result.next).toBe('string');
  // Had the worker gone on with the aborted job, the next one would have waited for the rest of it (≈ 4¾ runs).
  expect(result.nextDone - result.alone).toBeLessThan(2 * result.whole);
});
