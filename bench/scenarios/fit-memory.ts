import { createVaani } from '../../src/index';
import { memoryFigure } from '../../src/catalogue/fit';
import { row } from '../support/rows';
import { workerMemory } from '../support/worker-memory';
import type { PlanFor } from '../../src/protocol/fit';
import type { Scenario, ScenarioResult } from '../types';

/**
 * The plan's memory figure against what Vaani's worker holds (issue 33: within ±20 % for each
 * default). For each default `ai.plan` plans on WASM, a random-weight model in its real export layout
 * and layer sizes (bench/prepare/fit-memory.ts) is loaded through Vaani's own worker in this page,
 * one real request is answered, and the worker's peak memory is measured as chat-scaling does
 * (measureUserAgentSpecificMemory after a GC; WASM heaps never shrink). Beside it: the
 * memory of `ai.plan(id)` for the catalogue default on WASM (medium tier), and the figure the planner
 * gives for the bench's own files of that size and dtype. speech-stt-v1's IndicConformer and Shruti
 * parts are planned as a Hindi request is (medium and small tier), the Rasa voices as
 * `ai.plan('speech-tts-v1', { voice })` (Kokoro, Piper and MMS too), the small chat tier and Whisper
 * tiny / small as `ai.plan(id)` on the small / large tier; the pointer's keys say which models were written.
 */
const POINTER = '/test/.fixtures/bench-fit-memory.json';
const MIB = 2 ** 20;
const AUDIO = '/test/.fixtures/whisper/audio/jfk-16k.wav';

/** The bench models bench/prepare/fit-memory.ts wrote, by the pointer's key (the scenario measures those present). */
type Pointer = Partial<
  Record<
    | 'chat'
    | 'chat-small'
    | 'code'
    | 'embed'
    | 'whisper'
    | 'whisper-tiny'
    | 'whisper-small'
    | 'indic'
    | 'shruti'
    | 'rasa'
    | 'kokoro'
    | 'piper'
    | 'mms',
    string
  >
>;

interface Case {
  /** The pointer's key of its bench model. */
  key: keyof Pointer;
  /** The catalogue ids whose plans the measurement stands for (same files). */
  ids: string[];
  /** The model and family memoryFigure knows it by, where not the id. */
  model?: string;
  family: string;
  dtype: string;
  worker: string;
  files: string[];
  /** The plan it stands for, where not `ai.plan(id)` on the medium tier. */
  plan?: { tier: 'small' | 'medium' | 'large'; for?: PlanFor; row: string };
  /** createVaani's `models` for the bench model at `base`, where not `{ [id]: { baseURL, dtype } }`. */
  models?(base: string): Record<string, unknown>;
  request(ai: ReturnType<typeof createVaani>, id: string): Promise<void>;
}

const post = async (ai: ReturnType<typeof createVaani>, path: string, body: BodyInit, json = true) => {
  const response = await ai.fetch(path, {
    method: 'POST',
    headers: { authorization: 'Bearer bench', ...(json ? { 'content-type': 'application/json' } : {}) },
    body,
  });
  const answer = await response.json();
  if (!response.ok) throw new Error(`${path}: ${answer.error.message}`);
  return answer;
};

/** A chat request of a ~120-token prompt and 16 answer tokens. */
const chat = async (ai: ReturnType<typeof createVaani>, id: string) => {
  await post(
    ai,
    '/v1/chat/completions',
    JSON.stringify({
      model: id,
      messages: [
        { role: 'user', content: `Summarise this: ${'the quick brown fox jumps over the lazy dog. '.repeat(12)}` },
      ],
      temperature: 0,
      max_tokens: 16,
    }),
  );
};

/** One transcription of the 11 s clip in Hindi by the named engine (speech-stt-v1's other families). */
const transcribe = (engine: 'indic-conformer' | 'shruti') => async (ai: ReturnType<typeof createVaani>) => {
  const form = new FormData();
  form.set('file', new File([await (await fetch(AUDIO)).blob()], 'bench.wav'));
  form.set('model', 'speech-stt-v1');
  form.set('language', 'hi');
  form.set('engine', engine);
  await post(ai, '/v1/audio/transcriptions', form, false);
};

/** speech-stt-v1's Whisper (the medium tier's whisper-base; the other tiers' sizes below). */
const WHISPER: Case = {
  key: 'whisper',
  ids: ['speech-stt-v1'],
  family: 'whisper',
  dtype: 'q8',
  worker: 'whisper.worker',
  files: ['onnx/encoder_model_quantized.onnx', 'onnx/decoder_model_merged_quantized.onnx'],
  models: (base) => ({ 'speech-stt-v1': { baseURL: base, dtype: 'q8', indic: false } }),
  request: async (ai) => {
    const form = new FormData();
    form.set('file', new File([await (await fetch(AUDIO)).blob()], 'bench.wav'));
    form.set('model', 'speech-stt-v1');
    form.set('language', 'en');
    form.set('temperature_increment_on_fallback', '0');
    await post(ai, '/v1/audio/transcriptions', form, false);
  },
};

const ESPEAK = '/node_modules/@echogarden/espeak-ng-emscripten/';
const PIPER_FILE = 'te/te_IN/padmavathi/medium/te_IN-padmavathi-medium.onnx';
const HINDI = 'नमस्ते, आप कैसे हैं? मैं ठीक हूँ, धन्यवाद। आज मौसम बहुत अच्छा है।';

/** One sentence spoken by `voice` as WAV. */
const speak = (voice: string, input: string) => async (ai: ReturnType<typeof createVaani>) => {
  const response = await ai.fetch('/v1/audio/speech', {
    method: 'POST',
    headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'speech-tts-v1', voice, input, response_format: 'wav' }),
  });
  if (!response.ok) throw new Error(`/v1/audio/speech: ${(await response.json()).error.message}`);
  await response.arrayBuffer();
};

const CASES: Record<string, Case> = {
  'chat-v2': {
    key: 'chat',
    ids: ['chat-v2', 'agent-v1'],
    family: 'chat',
    dtype: 'q8',
    worker: 'chat.worker',
    files: ['onnx/model_quantized.onnx', 'onnx/model_quantized.onnx_data'],
    request: chat,
  },
  /** The small chat tier, Qwen2.5-0.5B-Instruct: `ai.plan('chat-v2')` on the small tier. */
  'chat-v2-small': {
    key: 'chat-small',
    ids: ['chat-v2'],
    model: 'onnx-community/Qwen2.5-0.5B-Instruct',
    family: 'chat',
    dtype: 'q8',
    worker: 'chat.worker',
    files: ['onnx/model_quantized.onnx', 'onnx/model_quantized.onnx_data'],
    plan: { tier: 'small', row: 'chat-v2.small' },
    models: (base) => ({ 'chat-v2': { baseURL: base, dtype: 'q8' } }),
    request: (ai) => chat(ai, 'chat-v2'),
  },
  /** Loaded as code-v1-base (fill-in-the-middle): code-v1 is the same export's instruct model, same shapes. */
  'code-v1-base': {
    key: 'code',
    ids: ['code-v1'],
    family: 'chat',
    dtype: 'q8',
    worker: 'chat.worker',
    files: ['onnx/model_quantized.onnx', 'onnx/model_quantized.onnx_data'],
    request: async (ai) => {
      const line = '    total += values[i] * weights[i]\n';
      await post(
        ai,
        '/v1/code/completions',
        JSON.stringify({
          prompt: `def weighted(values, weights):\n${line.repeat(6)}`,
          suffix: '    return total\n',
          max_tokens: 16,
          temperature: 0,
        }),
      );
    },
  },
  'embed-v1': {
    key: 'embed',
    ids: ['embed-v1'],
    family: 'embeddings',
    dtype: 'q8',
    worker: 'embeddings.worker',
    files: ['onnx/model_quantized.onnx', 'tokenizer.json'],
    request: async (ai, id) => {
      await post(
        ai,
        '/v1/embeddings',
        JSON.stringify({ model: id, input: ['query: what did I say about the train ticket to Chennai?'] }),
      );
    },
  },
  'speech-stt-v1': WHISPER,
  /** Whisper tiny, the small tier's model for English and the languages Shruti has no model for. */
  'speech-stt-v1-tiny': {
    ...WHISPER,
    key: 'whisper-tiny',
    model: 'onnx-community/whisper-tiny',
    plan: { tier: 'small', for: { language: 'en' }, row: 'speech-stt-v1.whisper-tiny' },
  },
  /** Whisper small, the large tier's. */
  'speech-stt-v1-small': {
    ...WHISPER,
    key: 'whisper-small',
    model: 'onnx-community/whisper-small',
    plan: { tier: 'large', for: { language: 'en' }, row: 'speech-stt-v1.whisper-small' },
  },
  /** IndicConformer int8, the medium tier's default for the 22 scheduled languages: `ai.plan('speech-stt-v1', { language: 'hi' })`. */
  'speech-stt-v1-indic': {
    key: 'indic',
    ids: ['speech-stt-v1'],
    model: 'indic-conformer',
    family: 'indic-conformer',
    dtype: 'int8',
    worker: 'indic-conformer.worker',
    files: ['assets/encoder.onnx', 'assets/ctc_decoder.onnx', 'assets/vocab.json', 'assets/language_masks.json'],
    plan: { tier: 'medium', for: { language: 'hi' }, row: 'speech-stt-v1.indic-conformer' },
    models: (base) => ({ 'speech-stt-v1': { indic: { baseURL: base, dtype: 'int8' } } }),
    request: transcribe('indic-conformer'),
  },
  /** Shruti, the small tier's per-language model: `ai.plan('speech-stt-v1', { language: 'hi' })` on the small tier. */
  'speech-stt-v1-shruti': {
    key: 'shruti',
    ids: ['speech-stt-v1'],
    model: 'shruti',
    family: 'moonshine',
    dtype: 'q4',
    worker: 'moonshine.worker',
    files: ['preprocess.onnx', 'encode.onnx', 'uncached_decode.onnx', 'cached_decode.onnx', 'tokens.txt'],
    plan: { tier: 'small', for: { language: 'hi' }, row: 'speech-stt-v1.shruti' },
    models: (base) => ({ 'speech-stt-v1': { shruti: { hi: { baseURL: base } } } }),
    request: transcribe('shruti'),
  },
  /** The Rasa voices' weights (sherpa-onnx VITS): `ai.plan('speech-tts-v1', { voice: 'ta-IN-rasa-female' })`. */
  'vits-rasa-13': {
    key: 'rasa',
    ids: ['speech-tts-v1'],
    model: 'vits-rasa-13',
    family: 'vits',
    dtype: 'fp32',
    worker: 'speech.worker',
    files: ['model.onnx', 'tokens.txt'],
    plan: { tier: 'medium', for: { voice: 'ta-IN-rasa-female' }, row: 'vits-rasa-13' },
    models: (base) => ({ 'vits-rasa-13': { baseURL: base } }),
    request: speak('ta-IN-rasa-female', 'வணக்கம், நீங்கள் எப்படி இருக்கிறீர்கள்? நான் நன்றாக இருக்கிறேன், நன்றி.'),
  },
  /** Kokoro-82M q8, the Hindi neural voices (the medium speech tier's): `ai.plan('speech-tts-v1', { voice: 'hi-IN-kokoro-alpha' })`. */
  'kokoro-82m': {
    key: 'kokoro',
    ids: ['speech-tts-v1'],
    model: 'kokoro-82m',
    family: 'kokoro',
    dtype: 'q8',
    worker: 'speech.worker',
    files: ['onnx/model_quantized.onnx', 'tokenizer.json', 'voices/hf_alpha.bin'],
    plan: { tier: 'medium', for: { voice: 'hi-IN-kokoro-alpha' }, row: 'kokoro-82m' },
    models: (base) => ({ 'espeak-ng': { baseURL: ESPEAK }, 'kokoro-82m': { baseURL: base } }),
    request: speak('hi-IN-kokoro-alpha', HINDI),
  },
  /** Piper's Telugu voice (fp32): `ai.plan('speech-tts-v1', { voice: 'te-IN-piper-padmavathi' })`. */
  'piper-te-padmavathi': {
    key: 'piper',
    ids: ['speech-tts-v1'],
    model: 'piper-te-padmavathi',
    family: 'vits',
    dtype: 'fp32',
    worker: 'speech.worker',
    files: [PIPER_FILE, `${PIPER_FILE}.json`],
    plan: { tier: 'medium', for: { voice: 'te-IN-piper-padmavathi' }, row: 'piper-te-padmavathi' },
    models: (base) => ({ 'espeak-ng': { baseURL: ESPEAK }, 'piper-te-padmavathi': { baseURL: base } }),
    request: speak('te-IN-piper-padmavathi', 'నమస్కారం, మీరు ఎలా ఉన్నారు? నేను బాగున్నాను, ధన్యవాదాలు.'),
  },
  /** MMS-TTS Hindi q8 (transformers.js VITS): `ai.plan('speech-tts-v1', { voice: 'hi-IN-mms-1' })`. */
  'mms-tts-hin': {
    key: 'mms',
    ids: ['speech-tts-v1'],
    model: 'mms-tts-hin',
    family: 'vits',
    dtype: 'q8',
    worker: 'speech.worker',
    files: ['onnx/model_quantized.onnx', 'vocab.json', 'tokenizer_config.json', 'config.json'],
    plan: { tier: 'medium', for: { voice: 'hi-IN-mms-1' }, row: 'mms-tts-hin' },
    models: (base) => ({ 'mms-tts-hin': { baseURL: base } }),
    request: speak('hi-IN-mms-1', HINDI),
  },
};

const sizeOf = async (url: string) => {
  const response = await fetch(url, { method: 'HEAD' });
  return response.ok ? Number(response.headers.get('content-length')) : 0;
};

/** Loads `base` as `id` through Vaani on WASM, answers one request, and returns the workers' bytes and the files' bytes. */
async function measure(env: { log(m: string): void }, id: string, c: Case, base: string) {
  const before = (await workerMemory()) ?? {};
  const ai = createVaani({
    backend: 'wasm',
    models: (c.models?.(base) ?? {
      [id]: { baseURL: base, dtype: c.dtype, ...(c.family === 'whisper' ? { indic: false } : {}) },
    }) as never,
  });
  try {
    await c.request(ai, id);
    const after = await workerMemory();
    if (!after) throw new Error('measureUserAgentSpecificMemory is not available (not cross-origin isolated?)');
    const worker = (after[c.worker] ?? 0) - (before[c.worker] ?? 0);
    if (worker <= 0) throw new Error(`no ${c.worker} measured: ${JSON.stringify(after)}`);
    let files = 0;
    for (const file of c.files) files += await sizeOf(`${base}${file}`);
    env.log(`${id} at ${base}: ${c.worker} ${(worker / MIB).toFixed(0)} MiB, files ${(files / MIB).toFixed(0)} MiB`);
    return {
      worker,
      files,
      workers: Object.fromEntries(Object.entries(after).map(([k, v]) => [k, Math.round(v / MIB)])),
    };
  } finally {
    ai.dispose();
    // Let the workers go before the next measurement.
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

const fitMemory: Scenario = async (env) => {
  const pointer = await fetch(POINTER);
  if (!pointer.ok)
    throw new Error(`${POINTER} is missing: run bench/prepare/fit-memory.ts first (npm run bench does).`);
  const bases = (await pointer.json()) as Pointer;
  // The defaults' plans on WASM: the medium tier, as a page with no `fit` option gets on a mid device
  // (Shruti is the small tier's).
  const planners = {
    medium: createVaani({ backend: 'wasm', fit: { tier: 'medium' } }),
    small: createVaani({ backend: 'wasm', fit: { tier: 'small' } }),
    large: createVaani({ backend: 'wasm', fit: { tier: 'large' } }),
  };
  const rows: ScenarioResult[] = [];
  for (const [key, c] of Object.entries(CASES)) {
    const base = bases[c.key];
    if (!base) continue;
    const { worker, files, workers } = await measure(env, key, c, base);
    // What the planner says for files of this size and dtype (not the catalogue's own: a ratio).
    const forFiles = memoryFigure(c.model ?? key, c.family, 'wasm', c.dtype, files, false);
    for (const id of c.ids) {
      const plan = await planners[c.plan?.tier ?? 'medium'].plan(id, c.plan?.for);
      const planned = plan.memory.bytes;
      const asked = c.plan?.for ? `'${id}', ${JSON.stringify(c.plan.for)}` : `'${id}'`;
      rows.push(
        row(
          `fit-memory.${c.plan?.row ?? id}.wasm`,
          `peak memory of Vaani's ${c.worker} after one request (${c.dtype}, WASM) vs the plan's memory figure`,
          'MiB',
          worker / MIB,
          planned == null
            ? null
            : {
                name: `ai.plan(${asked}).memory on WASM, ${c.plan?.tier ?? 'medium'} tier (${'dtype' in plan.decision ? plan.decision.dtype : 'not local'}, ${plan.memory.basis})`,
                value: planned / MIB,
              },
          false,
          {
            model: base,
            workersMiB: workers,
            dtype: c.dtype,
            weightBytes: Math.round(files),
            ratioToFiles: Math.round((worker / files) * 100) / 100,
            plan: { decision: plan.decision, memory: plan.memory, download: plan.download.bytes },
            planForTheseFiles: forFiles && {
              MiB: Math.round(forFiles.bytes / MIB),
              basis: forFiles.basis,
              from: forFiles.from,
            },
            threads: 'the default (1)',
          },
        ),
      );
    }
  }
  for (const planner of Object.values(planners)) planner.dispose();
  return rows;
};

export default fitMemory;
