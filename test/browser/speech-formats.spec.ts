import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { openHarness } from './support/page';

const ESPEAK_BASE = '/node_modules/@echogarden/espeak-ng-emscripten/';
/** The optional LGPL MP3 plug-in, served as a page would serve it. */
const LAME_BASE = '/node_modules/@breezystack/lamejs/dist/';
const FORMATS = ['wav', 'pcm', 'flac', 'opus', 'aac', 'mp3'] as const;
type Format = (typeof FORMATS)[number];
const TYPES: Record<Format, string> = {
  wav: 'audio/wav',
  pcm: 'audio/pcm',
  flac: 'audio/flac',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  mp3: 'audio/mpeg',
};
/**
 * How far a decoded duration may be from the input's: one codec frame (plus AAC's priming); MP3 from
 * the plug-in at 16 kHz, LAME's encoder delay (1,105 samples) and one frame of padding (576).
 */
const FRAME: Record<Format, number> = {
  wav: 0,
  pcm: 1 / 24000,
  flac: 0,
  opus: 0.02,
  aac: 2048 / 48000,
  mp3: (1105 + 576) / 16000,
};

/** Mono float samples ffmpeg decodes from `bytes` at 48 kHz (raw s16le at 24 kHz for pcm). */
function decode(bytes: Buffer, format: string, rate = 48000): Float32Array {
  const dir = mkdtempSync(join(tmpdir(), 'vaani-speech-'));
  const file = join(dir, `speech.${format}`);
  writeFileSync(file, bytes);
  const input = format === 'pcm' ? ['-f', 's16le', '-ar', '24000', '-ac', '1', '-i', file] : ['-i', file];
  const raw = execFileSync('ffmpeg', ['-v', 'error', ...input, '-f', 'f32le', '-ac', '1', '-ar', String(rate), '-'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return new Float32Array(raw.buffer, raw.byteOffset, raw.length / 4);
}

const seconds = (samples: Float32Array, rate = 48000) => samples.length / rate;

test('each format encodes real speech in the browser to what ffmpeg decodes back: the same duration ± 1 frame, the same signal', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await openHarness(page);
  const speech = decode(readFileSync(resolve('../shared/audio/jfk.flac')), 'flac', 16000);
  const answers = await page.evaluate(
    async ({ samples, formats, mp3 }) => {
      // The worker's own module, run here on the same samples for every format (mp3 through the plug-in).
      const module = '/src/common/audio/encode/index.ts';
      const { encodeAudio } = (await import(
        /* @vite-ignore */ module
      )) as typeof import('../../src/common/audio/encode');
      const audio = { samples: new Float32Array(samples), sampleRate: 16000 };
      const out = [];
      for (const format of formats) {
        try {
          const encoded = await encodeAudio(audio, format, { mp3 });
          const bytes = new Uint8Array(await new Blob(encoded.chunks).arrayBuffer());
          let binary = '';
          for (let i = 0; i < bytes.length; i += 0x8000)
            binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
          out.push({ format, body: btoa(binary) as string | null, name: null as string | null });
        } catch (error) {
          out.push({ format, body: null, name: (error as Error).name });
        }
      }
      return out;
    },
    { samples: Array.from(speech), formats: [...FORMATS], mp3: new URL(`${LAME_BASE}lamejs.js`, page.url()).href },
  );
  const reference = decode(Buffer.from(answers[0]!.body!, 'base64'), 'wav');
  expect(seconds(reference)).toBeCloseTo(speech.length / 16000, 4);
  for (const answer of answers) {
    if (!answer.body) {
      expect(answer.format).toBe('aac');
      expect(answer.name).toBe('FormatUnavailable');
      continue;
    }
    const decoded = decode(Buffer.from(answer.body, 'base64'), answer.format);
    if (answer.format === 'mp3') expect(seconds(decoded)).toBeGreaterThanOrEqual(seconds(reference));
    const gap = Math.abs(seconds(decoded) - seconds(reference));
    expect(gap, `${answer.format}: ${seconds(decoded)} s vs ${seconds(reference)} s`).toBeLessThanOrEqual(
      FRAME[answer.format as Format] + 1 / 48000,
    );
    // The same speech: the decoded signal's level follows the input's (lossy codecs shift it by their delay).
    const energy = (x: Float32Array) => Math.sqrt(x.reduce((sum, v) => sum + v * v, 0) / x.length);
    expect(energy(decoded) / energy(reference)).toBeGreaterThan(0.8);
    expect(energy(decoded) / energy(reference)).toBeLessThan(1.25);
  }
  expect(answers.filter((answer) => answer.body).map((answer) => answer.format)).toEqual(
    expect.arrayContaining(['wav', 'pcm', 'flac', 'opus', 'mp3']),
  );
});

test('through the openai SDK every format answers its content type and decodes; one this browser cannot write is a 400 naming those it can, sent once', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await openHarness(page);
  const answers = await page.evaluate(
    async ({ base, formats }) => {
      const ai = window.Vaani.createVaani({ auth: 'optional', models: { 'espeak-ng': { baseURL: base } } });
      let requests = 0;
      const counted: typeof fetch = (input, init) => (requests++, ai.fetch(input, init));
      // Default retries: a 400 must not be retried.
      const client = new window.OpenAI({
        baseURL: ai.baseURL,
        apiKey: 'k',
        fetch: counted,
        dangerouslyAllowBrowser: true,
      });
      const out = [];
      for (const format of formats) {
        const before = requests;
        try {
          const response = await client.audio.speech
            .create({ model: 'tts-1', voice: 'alloy', input: 'Hello from the browser.', response_format: format })
            .asResponse();
          const bytes = new Uint8Array(await response.arrayBuffer());
          let binary = '';
          for (let i = 0; i < bytes.length; i += 0x8000)
            binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
          const type = response.headers.get('content-type');
          out.push({
            format,
            type,
            rate: response.headers.get('x-vaani-sample-rate'),
            body: btoa(binary),
            sent: requests - before,
          });
        } catch (error) {
          const e = error as { status?: number; error?: { param?: string; code?: string; message?: string } };
          out.push({ format, status: e.status, error: e.error, sent: requests - before });
        }
      }
      ai.dispose();
      return out;
    },
    { base: ESPEAK_BASE, formats: [...FORMATS] },
  );
  const written = answers.filter((answer) => answer.body).map((answer) => answer.format);
  expect(written).toEqual(expect.arrayContaining(['wav', 'pcm', 'flac', 'opus']));
  const wav = seconds(decode(Buffer.from(answers[0]!.body!, 'base64'), 'wav'));
  for (const answer of answers) {
    expect(answer.sent).toBe(1);
    if (answer.body) {
      expect(answer.type).toBe(TYPES[answer.format]);
      // eSpeak's timing varies by a few percent from one call to the next; encoding itself is exact (test above).
      expect(Math.abs(seconds(decode(Buffer.from(answer.body, 'base64'), answer.format)) - wav) / wav).toBeLessThan(
        0.1,
      );
      if (answer.format === 'pcm') expect(answer.rate).toBe('24000');
    } else {
      expect(answer.status).toBe(400);
      expect(answer.error).toMatchObject({ param: 'response_format', code: 'unsupported_format' });
      expect(answer.error!.message).toContain(`Formats it can write: ${written.join(', ')}.`);
      if (answer.format === 'mp3') expect(answer.error!.message).toContain('models: { lamejs: { baseURL } }');
    }
  }
});

test('mp3 with the LGPL plug-in served: GET /v1/audio/speech/formats lists it, and the openai SDK gets MPEG audio ffmpeg decodes to the speech; without it, neither', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await openHarness(page);
  const answers = await page.evaluate(
    async ({ espeak, lame }) => {
      const run = async (models: Record<string, { baseURL: string }>) => {
        const ai = window.Vaani.createVaani({
          auth: 'optional',
          models: { 'espeak-ng': { baseURL: espeak }, ...models },
        });
        const client = new window.OpenAI({
          baseURL: ai.baseURL,
          apiKey: 'k',
          fetch: ai.fetch,
          dangerouslyAllowBrowser: true,
        });
        const formats = ((await (await ai.fetch('/v1/audio/speech/formats')).json()) as { data: string[] }).data;
        const speak = async (format: 'wav' | 'mp3') => {
          const response = await client.audio.speech
            .create({ model: 'tts-1', voice: 'alloy', input: 'Hello from the browser.', response_format: format })
            .asResponse()
            .catch((error: { status: number }) => ({ status: error.status }) as Response);
          if (!response.ok) return { status: response.status };
          const bytes = new Uint8Array(await response.arrayBuffer());
          let binary = '';
          for (let i = 0; i < bytes.length; i += 0x8000)
            binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
          return { status: response.status, type: response.headers.get('content-type'), body: btoa(binary) };
        };
        const out = { formats, mp3: await speak('mp3'), wav: await speak('wav') };
        ai.dispose();
        return out;
      };
      return { without: await run({}), with: await run({ lamejs: { baseURL: lame } }) };
    },
    { espeak: ESPEAK_BASE, lame: LAME_BASE },
  );
  expect(answers.without.formats).not.toContain('mp3');
  expect(answers.without.mp3.status).toBe(400);
  expect(answers.with.formats).toEqual([...answers.without.formats, 'mp3']);
  expect(answers.with.mp3).toMatchObject({ status: 200, type: 'audio/mpeg' });
  const mp3 = seconds(decode(Buffer.from(answers.with.mp3.body!, 'base64'), 'mp3'));
  const wav = seconds(decode(Buffer.from(answers.with.wav.body!, 'base64'), 'wav'));
  // The same sentence spoken twice (eSpeak varies by a few percent between calls), plus the MP3 delay.
  expect(Math.abs(mp3 - wav) / wav).toBeLessThan(0.1);
  // MPEG-2 Layer III frames at eSpeak's 22,050 Hz, 64 kbps.
  const bytes = Buffer.from(answers.with.mp3.body!, 'base64');
  expect(bytes[0]).toBe(0xff);
  expect(bytes[1]! & 0xe0).toBe(0xe0);
});

test('an unknown speech format is a 400 naming the parameter, and the next request works', async ({ page }) => {
  await openHarness(page);
  const result = await page.evaluate(async (base) => {
    const ai = window.Vaani.createVaani({ auth: 'optional', models: { 'espeak-ng': { baseURL: base } } });
    const post = (format: unknown) =>
      ai.fetch('/v1/audio/speech', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'tts-1', voice: 'alloy', input: 'Hello.', response_format: format }),
      });
    const bad = await post('ogg');
    const next = await post('flac');
    const out = {
      bad: bad.status,
      error: (await bad.json()).error,
      next: next.status,
      type: next.headers.get('content-type'),
    };
    ai.dispose();
    return out;
  }, ESPEAK_BASE);
  expect(result.bad).toBe(400);
  expect(result.error).toMatchObject({ param: 'response_format', type: 'invalid_request_error' });
  expect([result.next, result.type]).toEqual([200, 'audio/flac']);
});
