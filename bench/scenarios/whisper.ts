import { env, pipeline, WhisperFeatureExtractor, type AutomaticSpeechRecognitionPipeline } from '@huggingface/transformers';
import { WhisperMel } from '../../src/audio/mel';
import { createVaani } from '../../src/index';
import type { BenchEnv, Scenario, ScenarioResult } from '../types';

/** bench/prepare/whisper.ts writes these (served by the bench server). */
const MODELS = '/test/.fixtures/whisper/';
const AUDIO = '/test/.fixtures/whisper/audio/bench-30s.wav';
const ROUNDS = 2;
const ortDist = '/node_modules/@huggingface/transformers/node_modules/onnxruntime-web/dist/';

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
  const ai = createVaani({ backend: 'wasm', models: { 'speech-stt-v1': { baseURL: `${MODELS}${name}/`, dtype: 'fp32' } } });
  let text = '';
  const ms = await timed(ROUNDS, async () => {
    const form = new FormData();
    form.set('file', new File([wav], 'bench.wav'));
    form.set('model', 'speech-stt-v1');
    form.set('language', 'en');
    const response = await ai.fetch('/v1/audio/transcriptions', { method: 'POST', headers: { authorization: 'Bearer bench' }, body: form });
    const json = await response.json();
    if (!response.ok) throw new Error(`vaani: ${json.error.message}`);
    text = json.text;
  });
  ai.dispose();
  return { ms, text };
}

/** transformers.js from local files only, on its own onnxruntime-web build served by the bench server, 1 thread. */
function setUpTransformers(): void {
  env.allowRemoteModels = false;
  env.allowLocalModels = true;
  env.useBrowserCache = false;
  env.localModelPath = MODELS;
  env.backends.onnx.wasm!.numThreads = 1;
  env.backends.onnx.wasm!.wasmPaths = { mjs: `${ortDist}ort-wasm-simd-threaded.asyncify.mjs`, wasm: `${ortDist}ort-wasm-simd-threaded.asyncify.wasm` };
}

async function transformersSeconds(name: string, samples: Float32Array): Promise<{ ms: number; text: string }> {
  const asr = (await pipeline('automatic-speech-recognition', name, { dtype: 'fp32', device: 'wasm' })) as AutomaticSpeechRecognitionPipeline;
  const eot = asr.tokenizer.convert_tokens_to_ids('<|endoftext|>');
  let text = '';
  // The pipeline's own call, minus _decode_asr (it throws on the empty segments random weights make).
  const ms = await timed(ROUNDS, async () => {
    const { input_features } = await asr.processor(samples);
    const output = (await asr.model.generate({ inputs: input_features, language: 'en' } as never)) as unknown as { tolist(): bigint[][] };
    const tokens = output.tolist()[0]!.map(Number).slice(4).filter((token) => token < eot);
    text = tokens.length ? asr.tokenizer.decode(tokens, { skip_special_tokens: true }) : '';
  });
  await asr.dispose();
  return { ms, text };
}

/**
 * Real-time factor of Whisper-shaped models (whisper-tiny and whisper-base sizes, random weights,
 * 30 s of speech, WASM, 1 thread each) through Vaani's /v1/audio/transcriptions against
 * transformers.js's pipeline on the same files; both decode the same tokens. Also log-mel feature
 * extraction for 30 s against transformers.js's WhisperFeatureExtractor.
 */
const whisper: Scenario = async (bench: BenchEnv) => {
  const wavBytes = await (await fetch(AUDIO)).arrayBuffer();
  const samples = wavSamples(wavBytes);
  const seconds = samples.length / 16000;
  const rows: ScenarioResult[] = [];
  setUpTransformers();

  const mel = new WhisperMel();
  const reference = new WhisperFeatureExtractor({ feature_size: 80, sampling_rate: 16000, hop_length: 160, chunk_length: 30, n_fft: 400, n_samples: 480000, nb_max_frames: 3000 });
  const melMs = await timed(5, async () => mel.extract(samples));
  const referenceMelMs = await timed(5, () => reference(samples));
  rows.push({ id: 'whisper.features.30s', metric: 'log-mel features of 30 s', unit: 'ms', value: melMs, baseline: { name: 'transformers.js WhisperFeatureExtractor', value: referenceMelMs }, higherIsBetter: false });

  for (const [label, name] of [['tiny', 'bench-tiny'], ['base', 'bench-base']] as const) {
    bench.log(`whisper-${label}: Vaani …`);
    const ours = await vaaniSeconds(name, new Blob([wavBytes]));
    bench.log(`whisper-${label}: transformers.js …`);
    const theirs = await transformersSeconds(name, samples);
    bench.log(`whisper-${label}: ${ours.ms.toFixed(0)} ms vs ${theirs.ms.toFixed(0)} ms, same text: ${ours.text === theirs.text.trim()}`);
    rows.push({
      id: `whisper.${label}.rtf`, metric: `real-time factor, whisper-${label} sizes, 30 s, greedy, no timestamps`, unit: 'x',
      value: ours.ms / 1000 / seconds, baseline: { name: 'transformers.js processor + generate + decode (same model)', value: theirs.ms / 1000 / seconds },
      higherIsBetter: false, notes: { sameText: ours.text === theirs.text.trim(), vaaniMs: ours.ms, transformersMs: theirs.ms },
    });
  }
  return rows;
};

export default whisper;
