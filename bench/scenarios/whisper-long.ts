import sileroURL from '@ricky0123/vad-web/dist/silero_vad_v5.onnx?url';
import { wrap } from 'comlink';
import { loadSilero } from '../../src/common/audio/silero';
import { loadOrt, wasmThreads } from '../../src/common/backends/ort';
import { createVaani } from '../../src/index';
import type { WhisperTransformers } from '../support/whisper-transformers.worker';
import type { BenchEnv, Scenario, ScenarioResult } from '../types';

/** bench/prepare/whisper-long.ts writes these (served by the bench server). */
const MODELS = '/test/.fixtures/whisper/';
const AUDIO = '/test/.fixtures/whisper/audio/talk-3min.wav';
const LAYOUT = '/test/.fixtures/whisper/audio/talk-3min.json';

/** 16-bit PCM mono WAV samples, from the `data` chunk. */
function wavSamples(bytes: ArrayBuffer): Float32Array {
  const view = new DataView(bytes);
  let at = 12;
  while (String.fromCharCode(...new Uint8Array(bytes, at, 4)) !== 'data') at += 8 + view.getUint32(at + 4, true);
  const pcm = new Int16Array(bytes.slice(at + 8, at + 8 + view.getUint32(at + 4, true)));
  return Float32Array.from(pcm, (v) => v / 32768);
}

interface Run {
  ms: number;
  /** Segments in the answer and the tokens they hold (random weights make many passes of timestamps only). */
  segments?: number;
  keptTokens?: number;
  /** Tokens generated (transformers.js). */
  generatedTokens?: number;
}

/** Timed rounds per contender, interleaved so that load from elsewhere falls on all alike; the median counts. */
const ROUNDS = 3;

type Contender = () => Promise<Run>;

/** Vaani answering /v1/audio/transcriptions (verbose_json, one decode per pass) with extra `fields`. */
function vaani(wav: Blob, fields: Record<string, string>): { run: Contender; dispose(): void } {
  const ai = createVaani({
    backend: 'wasm',
    models: { 'speech-stt-v1': { baseURL: `${MODELS}bench-tiny/`, dtype: 'fp32', indic: false } },
  });
  const run = async () => {
    const form = new FormData();
    form.set('file', new File([wav], 'talk.wav'));
    for (const [key, value] of Object.entries({
      model: 'speech-stt-v1',
      language: 'en',
      response_format: 'verbose_json',
      temperature_increment_on_fallback: '0',
      ...fields,
    }))
      form.set(key, value);
    const start = performance.now();
    const response = await ai.fetch('/v1/audio/transcriptions', {
      method: 'POST',
      headers: { authorization: 'Bearer bench' },
      body: form,
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`vaani: ${json.error.message}`);
    const ms = performance.now() - start;
    const segments = (json as { segments: { tokens: number[] }[] }).segments;
    return { ms, segments: segments.length, keptTokens: segments.reduce((sum, s) => sum + s.tokens.length, 0) };
  };
  return { run, dispose: () => ai.dispose() };
}

/** transformers.js in its own worker at `threads`, cutting the audio as `chunk_length_s: 30` does. */
async function transformers(samples: Float32Array, threads: number): Promise<{ run: Contender; dispose(): void }> {
  const worker = new Worker(new URL('../support/whisper-transformers.worker.ts', import.meta.url), { type: 'module' });
  const asr = wrap<WhisperTransformers>(worker);
  await asr.load(MODELS, 'bench-tiny', threads);
  const run = async () => {
    const start = performance.now();
    const generatedTokens = await asr.transcribeChunked(samples);
    return { ms: performance.now() - start, generatedTokens };
  };
  return { run, dispose: () => worker.terminate() };
}

/** The Silero pass alone over the whole file (part of the VAD figure), in this thread. */
async function sileroMs(samples: Float32Array): Promise<number> {
  const vad = await loadSilero(await loadOrt(false), new URL(sileroURL, location.href).href);
  const start = performance.now();
  await vad.probabilities(samples);
  return performance.now() - start;
}

/**
 * Real-time factor of long audio with pauses (3 minutes made from the real clips in ../shared/audio,
 * about a third of it speech) on the whisper-tiny-sized bench model (random weights, WASM): Vaani with
 * VAD chunking (`chunking_strategy: auto`: Silero first, silence never decoded) against Vaani's
 * fixed 30 s windows, and against transformers.js's `chunk_length_s: 30` at the same threads; after a
 * warm-up each, three rounds run in turn (so load from elsewhere falls on all three alike), the median counts.
 */
const whisperLong: Scenario = async (bench: BenchEnv) => {
  const wavBytes = await (await fetch(AUDIO)).arrayBuffer();
  const layout = (await (await fetch(LAYOUT)).json()) as { duration: number; speech: [number, number][] };
  const samples = wavSamples(wavBytes);
  const seconds = samples.length / 16000;
  const speech = layout.speech.reduce((sum, [start, end]) => sum + end - start, 0);
  const threads = wasmThreads();
  const rtf = (run: Run) => run.ms / 1000 / seconds;
  bench.log(`whisper-long: ${seconds.toFixed(1)} s, ${speech.toFixed(1)} s of speech`);
  const contenders = {
    vad: vaani(new Blob([wavBytes]), { chunking_strategy: 'auto' }),
    fixed: vaani(new Blob([wavBytes]), {}),
    transformers: await transformers(samples, threads),
  };
  const runs: Record<keyof typeof contenders, Run[]> = { vad: [], fixed: [], transformers: [] };
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [name, contender] of Object.entries(contenders) as [keyof typeof contenders, { run: Contender }][]) {
      const result = await contender.run();
      bench.log(`whisper-long: ${name} ${round === 0 ? 'warm-up' : `round ${round}`} ${result.ms.toFixed(0)} ms`);
      if (round > 0) runs[name].push(result);
    }
  }
  for (const contender of Object.values(contenders)) contender.dispose();
  const median = (list: Run[]) => [...list].sort((a, b) => a.ms - b.ms)[Math.floor(list.length / 2)]!;
  const [vad, fixed, theirs] = [median(runs.vad), median(runs.fixed), median(runs.transformers)];
  const silero = await sileroMs(samples);
  bench.log(`whisper-long: Silero alone ${silero.toFixed(0)} ms`);
  const notes = {
    seconds,
    sileroMs: silero,
    speechSeconds: speech,
    threads,
    cores: navigator.hardwareConcurrency,
    rounds: ROUNDS,
    vad,
    fixed,
    transformers: theirs,
    allMs: Object.fromEntries(
      Object.entries(runs).map(([name, list]) => [name, list.map((run) => Math.round(run.ms))]),
    ),
    model: 'whisper-tiny sizes, random weights, fp32',
  };
  const metric = 'real-time factor, whisper-tiny sizes, 3 min with pauses, greedy, timestamps';
  const rows: ScenarioResult[] = [
    {
      id: 'whisper-long.tiny.rtf.vad-vs-fixed',
      metric,
      unit: 'x',
      value: rtf(vad),
      baseline: { name: 'Vaani with fixed 30 s windows (10 s overlap), no VAD', value: rtf(fixed) },
      higherIsBetter: false,
      notes,
    },
    {
      id: 'whisper-long.tiny.rtf.vad-vs-transformers',
      metric,
      unit: 'x',
      value: rtf(vad),
      baseline: { name: 'transformers.js chunk_length_s 30 (5 s stride), same threads', value: rtf(theirs) },
      higherIsBetter: false,
      notes,
    },
  ];
  return rows;
};

export default whisperLong;
