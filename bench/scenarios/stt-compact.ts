import { wasmThreads } from '../../src/common/backends/ort';
import { fetchLoader } from '../../src/common/weights';
import { createVaani } from '../../src/index';
import { SHRUTI_BYTES } from '../../src/catalogue/shruti';
import { TIER_TABLE } from '../../src/catalogue/tiers';
import { loadMoonshine } from '../../src/worker/transcription/moonshine/load';
import type { BenchEnv, Scenario, ScenarioResult } from '../types';

/** bench/prepare/stt-compact.ts writes these (served by the bench server). */
const SHRUTI = '/test/.fixtures/moonshine/bench-real/';
const INDIC = '/test/.fixtures/indic-conformer/bench-real-int8/';
const WHISPER_BASE = '/test/.fixtures/whisper/bench-base/';
const AUDIO = '/test/.fixtures/moonshine/audio/bench-30s.wav';

/** Downloads as the catalogue states them (the bench's random-weight files are fp32 / int8, not the real exports). */
const medium = TIER_TABLE.transcription.tiers.find((t) => t.tier === 'medium')!;
const DOWNLOAD_MB = {
  shruti: SHRUTI_BYTES / 1e6,
  indic: medium.extra!.bytes.wasm / 1e6,
  whisperBase: medium.download.q8! / 1e6,
};

function wavSamples(bytes: ArrayBuffer): Float32Array {
  const view = new DataView(bytes);
  let at = 12;
  while (String.fromCharCode(...new Uint8Array(bytes, at, 4)) !== 'data') at += 8 + view.getUint32(at + 4, true);
  const pcm = new Int16Array(bytes.slice(at + 8, at + 8 + view.getUint32(at + 4, true)));
  return Float32Array.from(pcm, (v) => v / 32768);
}

/** One request through /v1/audio/transcriptions (after a warm-up that loads the engine); ms and the text's length. */
async function routed(wav: Blob, fields: Record<string, string>) {
  const ai = createVaani({
    backend: 'wasm',
    models: {
      'speech-stt-v1': {
        whisper: { baseURL: WHISPER_BASE, dtype: 'fp32' },
        indic: { baseURL: INDIC, dtype: 'int8' },
        shruti: { hi: { baseURL: SHRUTI } },
      },
    },
  });
  const once = async (format: 'json' | 'verbose_json') => {
    const form = new FormData();
    form.set('file', new File([wav], 'bench.wav'));
    form.set('model', 'speech-stt-v1');
    form.set('response_format', format);
    for (const [key, value] of Object.entries(fields)) form.set(key, value);
    const response = await ai.fetch('/v1/audio/transcriptions', {
      method: 'POST',
      headers: { authorization: 'Bearer bench' },
      body: form,
    });
    const json = await response.json();
    if (!response.ok) throw new Error(`vaani: ${json.error.message}`);
    // Tokens decoded: every segment's ids (Whisper's include its timestamp tokens).
    return ((json.segments ?? []) as { tokens: number[] }[]).reduce((sum, segment) => sum + segment.tokens.length, 0);
  };
  // The warm-up (loads the engine) counts the tokens; the timed request is a plain `json` one, as an app sends.
  const tokens = await once('verbose_json');
  const start = performance.now();
  await once('json');
  const ms = performance.now() - start;
  ai.dispose();
  return { ms, tokens };
}

/**
 * Real-time factor on the same 30 s of speech (Hindi, WASM, Vaani's threads) of the compact
 * per-language model (Shruti's real shapes in sherpa-onnx's Moonshine layout), IndicConformer 600M
 * int8 and Whisper-base, each through /v1/audio/transcriptions with random weights at real shapes;
 * the compact one also against its bare runtime in the page (no worker, no VAD). Each row carries
 * the download the catalogue states for the real export. Random weights never say "end": the
 * decoders run to their caps (Moonshine's 6 tokens per second of audio, Whisper's 448 per window).
 */
const sttCompact: Scenario = async (bench: BenchEnv) => {
  const wavBytes = await (await fetch(AUDIO)).arrayBuffer();
  const samples = wavSamples(wavBytes);
  const seconds = samples.length / 16000;
  const rtf = (ms: number) => ms / 1000 / seconds;
  const wav = new Blob([wavBytes]);
  const common = {
    threads: wasmThreads(),
    cores: navigator.hardwareConcurrency,
    audioSeconds: seconds,
    downloadMB: DOWNLOAD_MB,
  };

  bench.log('compact (Shruti shapes): bare runtime …');
  const { model } = await loadMoonshine(fetchLoader(`${location.origin}${SHRUTI}`), { backend: 'wasm' });
  const bare = async () => {
    const encoded = await model.encode(samples);
    const decoded = await model.decode(encoded);
    encoded.dispose();
    return decoded.tokens.length;
  };
  await bare();
  const bareStart = performance.now();
  const bareTokens = await bare();
  const bareMs = performance.now() - bareStart;
  bench.log('compact through the route …');
  const shruti = await routed(wav, { language: 'hi', engine: 'shruti' });
  bench.log('IndicConformer int8 through the route …');
  const indic = await routed(wav, { language: 'hi', engine: 'indic-conformer' });
  bench.log('Whisper-base through the route …');
  const whisper = await routed(wav, { language: 'hi', engine: 'whisper' });
  const notes = {
    ...common,
    shrutiMs: shruti.ms,
    shrutiTokens: shruti.tokens,
    bareMs,
    bareTokens,
    indicMs: indic.ms,
    indicTokens: indic.tokens,
    whisperBaseMs: whisper.ms,
    whisperBaseTokens: whisper.tokens,
  };
  const metric = `real-time factor on 30 s of speech, compact per-language STT (Shruti real shapes, ${DOWNLOAD_MB.shruti} MB download)`;
  const rows: ScenarioResult[] = [
    {
      id: 'stt-compact.rtf.bare',
      metric,
      unit: 'x',
      value: rtf(shruti.ms),
      baseline: { name: 'the bare Moonshine-layout runtime in the page (no worker, no VAD)', value: rtf(bareMs) },
      higherIsBetter: false,
      notes,
    },
    {
      id: 'stt-compact.rtf.vs-indic-int8',
      metric,
      unit: 'x',
      value: rtf(shruti.ms),
      baseline: {
        name: `IndicConformer 600M int8 real shapes through the same route (${DOWNLOAD_MB.indic} MB download)`,
        value: rtf(indic.ms),
      },
      higherIsBetter: false,
      notes,
    },
    {
      id: 'stt-compact.rtf.vs-whisper-base',
      metric,
      unit: 'x',
      value: rtf(shruti.ms),
      baseline: {
        name: `Whisper-base sizes through the same route (${DOWNLOAD_MB.whisperBase} MB download, q8)`,
        value: rtf(whisper.ms),
      },
      higherIsBetter: false,
      notes,
    },
  ];
  return rows;
};

export default sttCompact;
