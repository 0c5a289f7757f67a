import { heldBytes } from '../support/memory';
import { wasmThreads } from '../../src/common/backends/ort';
import { createVaani } from '../../src/index';
import { loadIndicConformer } from '../../src/worker/transcription/indic-conformer/load';
import { fetchLoader } from '../../src/common/weights';
import type { BenchEnv, Scenario, ScenarioResult } from '../types';

/** bench/prepare/indic-conformer.ts writes these (served by the bench server). */
const MODELS = '/test/.fixtures/indic-conformer/';
const WHISPER_BASE = '/test/.fixtures/whisper/bench-base/';
const AUDIO = '/test/.fixtures/indic-conformer/audio/bench-15s.wav';
/** Timed rounds after a warm-up: two at the fixture size, one at the real shapes (minutes each on 2 cores). */
const roundsFor = (dir: string) => (dir.includes('real') ? 1 : 2);

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

/** Page + workers memory in MiB. */
const memoryMB = async () => {
  const bytes = await heldBytes();
  return bytes === undefined ? undefined : bytes / 2 ** 20;
};

function wavSamples(bytes: ArrayBuffer): Float32Array {
  const view = new DataView(bytes);
  let at = 12;
  while (String.fromCharCode(...new Uint8Array(bytes, at, 4)) !== 'data') at += 8 + view.getUint32(at + 4, true);
  const pcm = new Int16Array(bytes.slice(at + 8, at + 8 + view.getUint32(at + 4, true)));
  return Float32Array.from(pcm, (v) => v / 32768);
}

/** One speech-stt-v1 service; `fields` pick the family. Time per request and memory with the engine loaded. */
async function service(indicDir: string, wav: Blob, fields: Record<string, string>) {
  const ai = createVaani({
    backend: 'wasm',
    models: {
      'speech-stt-v1': {
        whisper: { baseURL: WHISPER_BASE, dtype: 'fp32' },
        indic: { baseURL: `${MODELS}${indicDir}/`, dtype: indicDir.includes('int8') ? 'int8' : 'fp32' },
      },
    },
  });
  let text = '';
  const ms = await timed(roundsFor(indicDir), async () => {
    const form = new FormData();
    form.set('file', new File([wav], 'bench.wav'));
    form.set('model', 'speech-stt-v1');
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    const response = await ai.fetch('/v1/audio/transcriptions', {
      method: 'POST',
      headers: { authorization: 'Bearer bench' },
      body: form,
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`vaani: ${json.error.message}`);
    text = json.text;
  });
  const memory = await memoryMB();
  ai.dispose();
  return { ms, text, memory };
}

/** The bare runtime in the page: features → encoder → CTC over the whole clip, no worker, no VAD. */
async function bare(indicDir: string, samples: Float32Array) {
  const dtype = indicDir.includes('int8') ? 'int8' : 'fp32';
  const { model } = await loadIndicConformer(fetchLoader(`${location.origin}${MODELS}${indicDir}/`), {
    backend: 'wasm',
    dtype,
  });
  return timed(roundsFor(indicDir), async () => model.ctc(await model.encode(samples), 'hi'));
}

/**
 * Real-time factor of IndicConformer through /v1/audio/transcriptions (Hindi, CTC, WASM, Vaani's
 * threads) on 15 s of recorded speech (one VAD window), at the fixture size and at IndicConformer
 * 600M's real shapes with int8 MatMuls (random weights); against the bare runtime (no worker, no VAD)
 * and Whisper-base's sizes through the same route at the same threads; page memory with each loaded.
 */
const indicConformer: Scenario = async (bench: BenchEnv) => {
  const wavBytes = await (await fetch(AUDIO)).arrayBuffer();
  const samples = wavSamples(wavBytes);
  const seconds = samples.length / 16000;
  const threads = wasmThreads();
  const rtf = (ms: number) => ms / 1000 / seconds;
  const rows: ScenarioResult[] = [];
  const common = { threads, cores: navigator.hardwareConcurrency, audioSeconds: seconds };

  bench.log('fixture size: Vaani …');
  const ours = await service('bench-tiny', new Blob([wavBytes]), { language: 'hi' });
  const bareMs = await bare('bench-tiny', samples);
  let whisper: { ms: number; memory?: number } | undefined;
  let whisperError: string | undefined;
  try {
    bench.log('whisper-base through the same route …');
    whisper = await service('bench-tiny', new Blob([wavBytes]), { language: 'hi', engine: 'whisper' });
  } catch (error) {
    whisperError = String(error);
  }
  const notes = {
    ...common,
    vaaniMs: ours.ms,
    bareMs,
    pageMemoryMB: ours.memory,
    whisperBaseMs: whisper?.ms,
    whisperError,
  };
  const metric = 'real-time factor, IndicConformer fixture size, Hindi CTC, 15 s of speech';
  rows.push({
    id: 'indic-conformer.fixture.rtf.bare',
    metric,
    unit: 'x',
    value: rtf(ours.ms),
    baseline: {
      name: 'the bare runtime in the page (features + encoder + CTC, no worker, no VAD)',
      value: rtf(bareMs),
    },
    higherIsBetter: false,
    notes,
  });
  if (whisper)
    rows.push({
      id: 'indic-conformer.fixture.rtf',
      metric,
      unit: 'x',
      value: rtf(ours.ms),
      baseline: { name: 'Whisper-base sizes through the same route, same threads', value: rtf(whisper.ms) },
      higherIsBetter: false,
      notes,
    });

  // Real shapes: the bare runtime in the page, one timed pass, then the same through the route.
  bench.log('real shapes (int8): bare runtime …');
  const before = await memoryMB();
  const dtype = 'int8';
  const loadStart = performance.now();
  const { model } = await loadIndicConformer(fetchLoader(`${location.origin}${MODELS}bench-real-int8/`), {
    backend: 'wasm',
    dtype,
  });
  const loadMs = performance.now() - loadStart;
  const start = performance.now();
  await model.ctc(await model.encode(samples), 'hi');
  const realMs = performance.now() - start;
  const after = await memoryMB();
  bench.log(`real shapes: ${realMs.toFixed(0)} ms for ${seconds} s; through the route …`);
  const routed = await service('bench-real-int8', new Blob([wavBytes]), { language: 'hi' });
  const realMetric =
    'real-time factor, IndicConformer 600M real shapes (int8 MatMuls, random weights), Hindi CTC, one 15 s window';
  const realNotes = {
    ...common,
    realMs,
    routeMs: routed.ms,
    loadMs,
    memoryBeforeMB: before,
    memoryWithModelMB: after,
    routeMemoryMB: routed.memory,
    whisperBaseMs: whisper?.ms,
    whisperError,
  };
  rows.push({
    id: 'indic-conformer.real-int8.rtf.bare',
    metric: `${realMetric}, through /v1/audio/transcriptions`,
    unit: 'x',
    value: rtf(routed.ms),
    baseline: {
      name: 'the bare runtime in the page (features + encoder + CTC, no worker, no VAD)',
      value: rtf(realMs),
    },
    higherIsBetter: false,
    notes: realNotes,
  });
  if (whisper)
    rows.push({
      id: 'indic-conformer.real-int8.rtf.vs-whisper-base',
      metric: `${realMetric}, through /v1/audio/transcriptions`,
      unit: 'x',
      value: rtf(routed.ms),
      baseline: { name: 'Whisper-base sizes through the same route, same threads', value: rtf(whisper.ms) },
      higherIsBetter: false,
      notes: realNotes,
    });
  return rows;
};

export default indicConformer;
