import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ensureEncoderFixture } from '../fixtures/encoder/fixture-dir';
import { tinyBert } from '../fixtures/encoder/spec';
import { ensureTinyIndicConformer, FIXTURE_URL as INDIC_URL } from '../fixtures/indic-conformer/ensure';
import { convert, WAV_16K_MONO } from '../fixtures/whisper/audio';
import { ensureTinyWhisper, FIXTURE_ROOT, FIXTURE_URL as WHISPER_ROOT } from '../fixtures/whisper/ensure';
import { maxAbsDiff } from './support/encoder-reference';
import { openHarness } from './support/page';

/**
 * Every family that runs on WebGPU loads onnxruntime-web's WebGPU build: the C++ WebGPU execution
 * provider (`onnxruntime-web/webgpu`, its asyncify WASM), not JSEP. On Chromium's software adapter
 * (`backend: 'webgpu'` takes it; `auto` passes it by) each family's graphs run there and agree with
 * WASM, and the page fetches that build's WASM and no other WebGPU build.
 */

const JFK = 'audio/jfk-16k.wav';
const ORT_WASM = /\/ort-wasm-simd-threaded[\w.-]*\.wasm[\w.-]*$/;

/** The onnxruntime-web WASM files the page fetched, by build name (`asyncify`, `jsep`, plain `wasm`). */
function watchOrtWasm(page: Page): Set<string> {
  const builds = new Set<string>();
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (!ORT_WASM.test(path)) return;
    builds.add(/\.asyncify\./.test(path) ? 'asyncify' : /\.jsep\./.test(path) ? 'jsep' : 'wasm');
  });
  return builds;
}

async function adapter(page: Page): Promise<'none' | 'software' | 'hardware'> {
  return page.evaluate(async () => {
    const found = await navigator.gpu?.requestAdapter();
    return found ? (found.info.isFallbackAdapter ? 'software' : 'hardware') : 'none';
  });
}

test.beforeAll(async () => {
  await ensureTinyWhisper();
  await ensureTinyIndicConformer();
  convert('jfk.flac', join(FIXTURE_ROOT, JFK), WAV_16K_MONO);
});

test('embeddings on WebGPU (the C++ EP) equal WASM within 1e-4, and run there', async ({ page }) => {
  const bert = await ensureEncoderFixture('tiny-bert', tinyBert);
  await openHarness(page);
  const builds = watchOrtWasm(page);
  test.skip((await adapter(page)) === 'none', 'no WebGPU adapter in this browser');
  const got = await page.evaluate(async (url) => {
    const embed = async (backend: 'webgpu' | 'wasm') => {
      const ai = window.Vaani.createVaani({ backend, models: { 'embed-v1': { baseURL: url, dtype: 'fp32' } } });
      const response = await ai.fetch('/v1/embeddings', {
        method: 'POST',
        headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'embed-v1', input: ['नमस्ते दुनिया', 'hello world'], encoding_format: 'float' }),
      });
      const json = await response.json();
      const runsOn = (await (await ai.fetch('/v1/models/embed-v1', { headers: { authorization: 'Bearer k' } })).json())
        .runs_on.local as string[];
      ai.dispose();
      return { status: response.status, json, runsOn };
    };
    return { gpu: await embed('webgpu'), cpu: await embed('wasm') };
  }, bert.url);
  expect(got.gpu.status, JSON.stringify(got.gpu.json)).toBe(200);
  expect(got.gpu.runsOn).toEqual(['webgpu']);
  for (const [i, item] of (got.gpu.json.data as { embedding: number[] }[]).entries())
    expect(maxAbsDiff(item.embedding, got.cpu.json.data[i].embedding)).toBeLessThan(1e-4);
  expect([...builds].sort()).toEqual(['asyncify', 'wasm']);
});

test('Whisper and IndicConformer (CTC and RNN-T) on WebGPU (the C++ EP) give the WASM transcripts', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await openHarness(page);
  const builds = watchOrtWasm(page);
  test.skip((await adapter(page)) === 'none', 'no WebGPU adapter in this browser');
  const got = await page.evaluate(
    async ({ whisper, indic, audio }) => {
      const bytes = await (await fetch(audio)).blob();
      const transcribe = async (backend: 'webgpu' | 'wasm', language: string, decoding?: string) => {
        const ai = window.Vaani.createVaani({
          backend,
          models: {
            'speech-stt-v1': {
              whisper: { baseURL: whisper, dtype: 'fp32' },
              indic: { baseURL: indic, dtype: 'fp32' },
              shruti: false,
            },
          },
        });
        const form = new FormData();
        form.set('file', new File([bytes], 'jfk.wav'));
        form.set('model', 'speech-stt-v1');
        form.set('language', language);
        form.set('temperature', '0');
        form.set('temperature_increment_on_fallback', '0');
        if (decoding) form.set('decoding', decoding);
        const response = await ai.fetch('/v1/audio/transcriptions', {
          method: 'POST',
          headers: { authorization: 'Bearer k' },
          body: form,
        });
        const json = await response.json();
        const runsOn = (
          await (await ai.fetch('/v1/models/speech-stt-v1', { headers: { authorization: 'Bearer k' } })).json()
        ).runs_on.local as string[];
        ai.dispose();
        return { status: response.status, json, runsOn };
      };
      const out: Record<string, { status: number; json: { text?: string }; runsOn: string[] }> = {};
      // Whisper (en), IndicConformer's CTC head and its RNN-T graphs, four sessions made at once (hi).
      for (const [language, decoding] of [['en'], ['hi'], ['hi', 'rnnt']])
        for (const backend of ['webgpu', 'wasm'] as const)
          out[`${[language, decoding].filter(Boolean).join('+')}/${backend}`] = await transcribe(
            backend,
            language!,
            decoding,
          );
      return out;
    },
    { whisper: `${WHISPER_ROOT}tiny/`, indic: INDIC_URL, audio: `${WHISPER_ROOT}${JFK}` },
  );
  for (const request of ['en', 'hi', 'hi+rnnt']) {
    const gpu = got[`${request}/webgpu`]!;
    const cpu = got[`${request}/wasm`]!;
    expect(gpu.status, JSON.stringify(gpu.json)).toBe(200);
    expect(cpu.status, JSON.stringify(cpu.json)).toBe(200);
    expect(gpu.runsOn).toContain('webgpu');
    expect(gpu.json.text).toBe(cpu.json.text);
  }
  expect([...builds].sort()).toEqual(['asyncify', 'wasm']);
});
