import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import { convert, WAV_16K_MONO } from '../fixtures/whisper/audio';
import { ensureTinyWhisper, FIXTURE_ROOT, FIXTURE_URL } from '../fixtures/whisper/ensure';
import { openHarness } from './support/page';

const CHAT = '/shared/fixtures/tiny-random-llama-fp16-genai/';
const STT = `${FIXTURE_URL}tiny/`;
const AUDIO = 'audio/jfk-16k.wav';
const ORT_WASM = /\/ort-wasm-simd-threaded[\w.-]*\.wasm[\w.-]*$/;

test.beforeAll(async () => {
  await ensureTinyWhisper();
  convert('jfk.flac', join(FIXTURE_ROOT, AUDIO), WAV_16K_MONO);
});

test("onnxruntime-web's WASM is fetched once per page: two chat engines, Whisper and a restarted worker share it", async ({
  page,
}) => {
  // Routed requests skip the HTTP cache: every fetch of the file, the page's or a worker's, is counted.
  const fetched: string[] = [];
  await page.route(ORT_WASM, (route) => {
    fetched.push(new URL(route.request().url()).pathname);
    return route.continue();
  });
  const errors = await openHarness(page);
  const result = await page.evaluate(
    async ({ chat, stt, audio }) => {
      const workers: { worker: Worker; name: string }[] = [];
      const NativeWorker = window.Worker;
      window.Worker = class extends NativeWorker {
        constructor(url: string | URL, options?: WorkerOptions) {
          super(url, options);
          const name = options?.name ?? '';
          if (/^vaani-(chat|stt)-/.test(name)) workers.push({ worker: this, name });
        }
      };
      const models = {
        'chat-v2': { baseURL: chat },
        'speech-stt-v1': { baseURL: stt, dtype: 'fp32' as const, indic: false },
      };
      // Unshared: each instance runs its own workers.
      // Two threads (the default on this 2-core machine is one): onnxruntime's threads get the module too.
      const one = window.Vaani.createVaani({ backend: 'wasm', share: false, threads: 2, models });
      const two = window.Vaani.createVaani({ backend: 'wasm', share: false, threads: 2, baseURL: '/two/v1', models });
      const headers = { authorization: 'Bearer k', 'content-type': 'application/json' };
      const chatOn = async (ai: typeof one) => {
        const response = await ai.fetch(`${ai.baseURL}/chat/completions`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ model: 'chat-v2', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 4 }),
        });
        return response.status;
      };
      const transcribe = async () => {
        const form = new FormData();
        form.set('file', await (await fetch(audio)).blob(), 'jfk.wav');
        form.set('model', 'speech-stt-v1');
        const response = await one.fetch(`${one.baseURL}/audio/transcriptions`, {
          method: 'POST',
          headers: { authorization: 'Bearer k' },
          body: form,
        });
        return response.status;
      };
      const statuses = await Promise.all([chatOn(one), chatOn(two), transcribe()]);
      // A worker that crashes is replaced: the new one starts from the page's copy too.
      const crashed = workers.find(({ name }) => name.startsWith('vaani-chat-'))!.worker;
      crashed.terminate();
      crashed.dispatchEvent(new ErrorEvent('error', { message: 'killed by the test' }));
      statuses.push(await chatOn(one), await chatOn(two));
      window.Worker = NativeWorker;
      one.dispose();
      two.dispose();
      return { statuses, workers: workers.length, isolated: crossOriginIsolated };
    },
    { chat: CHAT, stt: STT, audio: `${FIXTURE_URL}${AUDIO}` },
  );
  expect(errors).toEqual([]);
  expect(result.isolated).toBe(true); // onnxruntime-web runs threaded: its threads get the module too
  expect(result.statuses).toEqual([200, 200, 200, 200, 200]);
  expect(result.workers).toBe(4); // two chat, Whisper, and the chat worker that replaced the crashed one
  expect(fetched).toEqual([expect.stringMatching(/\/ort-wasm-simd-threaded\.wasm-[\w-]+\.gz$/)]);
});

test('a page whose CSP forbids compiling WASM hands its workers the bytes: they compile them; one fetch still', async ({
  page,
}) => {
  // The page may not compile WASM ('wasm-unsafe-eval' missing); its workers, served without a CSP, may.
  await page.route('**/test/browser/pages/harness.html', async (route) => {
    const response = await route.fetch();
    await route.fulfill({
      response,
      headers: { ...response.headers(), 'content-security-policy': "script-src 'self'" },
    });
  });
  const fetched: string[] = [];
  await page.route(ORT_WASM, (route) => {
    fetched.push(new URL(route.request().url()).pathname);
    return route.continue();
  });
  const errors = await openHarness(page);
  const result = await page.evaluate(async (chat) => {
    const refused = await WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(
      () => false,
      () => true,
    );
    const models = { 'chat-v2': { baseURL: chat } };
    const one = window.Vaani.createVaani({ backend: 'wasm', share: false, models });
    const two = window.Vaani.createVaani({ backend: 'wasm', share: false, baseURL: '/two/v1', models });
    const chatOn = async (ai: typeof one) =>
      (
        await ai.fetch(`${ai.baseURL}/chat/completions`, {
          method: 'POST',
          headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'chat-v2', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 4 }),
        })
      ).status;
    const statuses = await Promise.all([chatOn(one), chatOn(two)]);
    one.dispose();
    two.dispose();
    return { refused, statuses };
  }, CHAT);
  expect(errors).toEqual([]);
  expect(result.refused).toBe(true);
  expect(result.statuses).toEqual([200, 200]);
  expect(fetched).toEqual([expect.stringMatching(/\/ort-wasm-simd-threaded\.wasm-[\w-]+\.gz$/)]);
});
