import { WhisperFeatureExtractor } from '@huggingface/transformers';
import { wrap } from 'comlink';
import { wasmThreads } from '../../src/common/backends/ort';
import { WhisperMel } from '../../src/common/audio/mel';
import { createVaani } from '../../src/index';
import { useLocalTransformers } from '../support/transformers-env';
import type { WhisperTransformers } from '../support/whisper-transformers.worker';
import type { BenchEnv, Scenario, ScenarioResult } from '../types';

/** bench/prepare/whisper.ts writes these (served by the bench server). */
const MODELS = '/test/.fixtures/whisper/';
const AUDIO = '/test/.fixtures/whisper/audio/bench-30s.wav';
const ROUNDS = 2;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(rounds: number, run: () => Promise<unknown>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return median(times);
}

/** 16-bit PCM mono WAV samples (the bench file is written that way), from the `data` chunk. */
function wavSamples(bytes: ArrayBuffer): Float32Array {
  const view = new DataView(bytes);
  let at = 12;
  while (String.fromCharCode(...new Uint8Array(bytes, at, 4)) !== 'data') at += 8 + view.getUint32(at + 4, true);
  const pcm = new Int16Array(bytes.slice(at + 8, at + 8 + view.getUint32(at + 4, true)));
  return Float32Array.from(pcm, (v) => v / 32768);
}

async function vaaniSeconds(name: string, wav: Blob): Promise<{ ms: number; text: string }> {
  const ai = createVaani({
    backend: 'wasm',
    models: { 'speech-stt-v1': { baseURL: `${MODELS}${name}/`, dtype: 'fp32', indic: false } },
  });
  let text = '';
  const ms = await timed(ROUNDS, async () => {
    const form = new FormData();
    form.set('file', new File([wav], 'bench.wav'));
    form.set('model', 'speech-stt-v1');
    form.set('language', 'en');
    // One decode per window, as the pipeline does: same tokens, same work.
    form.set('temperature_increment_on_fallback', '0');
    const response = await ai.fetch('/v1/audio/transcriptions', {
      method: 'POST',
      headers: { authorization: 'Bearer bench' },
      body: form,
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`vaani: ${json.error.message}`);
    text = json.text;
  });
  ai.dispose();
  return { ms, text };
}

/** transformers.js's pipeline in its own worker with `threads` (undefined: its default); time per 30 s. */
async function transformersSeconds(
  name: string,
  samples: Float32Array,
  threads: number | undefined,
): Promise<{ ms: number; text: string; threads: number }> {
  const worker = new Worker(new URL('../support/whisper-transformers.worker.ts', import.meta.url), { type: 'module' });
  const asr = wrap<WhisperTransformers>(worker);
  const used = await asr.load(MODELS, name, threads);
  let text = '';
  const ms = await timed(ROUNDS, async () => {
    text = await asr.transcribe(samples);
  });
  worker.terminate();
  return { ms, text, threads: used };
}

const TJS = 'transformers.js processor + generate + decode (same model; its default threads)';
const TJS_SAME = 'the same, given the same WASM threads as Vaani';

/**
 * Real-time factor of Whisper-shaped models (whisper-tiny and whisper-base sizes, random weights,
 * 30 s of speech, WASM) through Vaani's /v1/audio/transcriptions (its default threads) against
 * transformers.js's pipeline on the same files, at its default threads and at Vaani's; all decode
 * the same tokens. Also log-mel feature extraction for 30 s against WhisperFeatureExtractor.
 */
const whisper: Scenario = async (bench: BenchEnv) => {
  const wavBytes = await (await fetch(AUDIO)).arrayBuffer();
  const samples = wavSamples(wavBytes);
  const seconds = samples.length / 16000;
  const threads = wasmThreads();
  const rows: ScenarioResult[] = [];
  useLocalTransformers(MODELS, undefined);

  const mel = new WhisperMel();
  const reference = new WhisperFeatureExtractor({
    feature_size: 80,
    sampling_rate: 16000,
    hop_length: 160,
    chunk_length: 30,
    n_fft: 400,
    n_samples: 480000,
    nb_max_frames: 3000,
  });
  const melMs = await timed(5, async () => mel.extract(samples));
  const referenceMelMs = await timed(5, () => reference(samples));
  rows.push({
    id: 'whisper.features.30s',
    metric: 'log-mel features of 30 s',
    unit: 'ms',
    value: melMs,
    baseline: { name: 'transformers.js WhisperFeatureExtractor', value: referenceMelMs },
    higherIsBetter: false,
  });

  for (const [label, name] of [
    ['tiny', 'bench-tiny'],
    ['base', 'bench-base'],
  ] as const) {
    bench.log(`whisper-${label}: Vaani …`);
    const ours = await vaaniSeconds(name, new Blob([wavBytes]));
    bench.log(`whisper-${label}: transformers.js …`);
    const theirs = await transformersSeconds(name, samples, undefined);
    const same = theirs.threads === threads ? theirs : await transformersSeconds(name, samples, threads);
    bench.log(
      `whisper-${label}: ${ours.ms.toFixed(0)} ms vs ${theirs.ms.toFixed(0)} ms (${theirs.threads} threads) and ${same.ms.toFixed(0)} ms (${same.threads}), same text: ${ours.text === theirs.text.trim()}`,
    );
    const metric = `real-time factor, whisper-${label} sizes, 30 s, greedy, no timestamps`;
    const notes = {
      sameText: ours.text === theirs.text.trim() && ours.text === same.text.trim(),
      threads,
      transformersThreads: theirs.threads,
      cores: navigator.hardwareConcurrency,
      vaaniMs: ours.ms,
      transformersMs: theirs.ms,
      transformersSameThreadsMs: same.ms,
    };
    const rtf = (ms: number) => ms / 1000 / seconds;
    rows.push({
      id: `whisper.${label}.rtf`,
      metric,
      unit: 'x',
      value: rtf(ours.ms),
      baseline: { name: TJS, value: rtf(theirs.ms) },
      higherIsBetter: false,
      notes,
    });
    rows.push({
      id: `whisper.${label}.rtf.same-threads`,
      metric,
      unit: 'x',
      value: rtf(ours.ms),
      baseline: { name: TJS_SAME, value: rtf(same.ms) },
      higherIsBetter: false,
      notes,
    });
  }
  return rows;
};

export default whisper;
