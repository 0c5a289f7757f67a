/**
 * What the planner (`ai.plan`, `x_vaani` on GET /v1/models/{id}) knows of a default model before
 * any byte of it moves: its rounded download per dtype and the memory a family needs per backend,
 * each figure with where it came from. Exact sizes come from a folder's vaani-manifest.json or a
 * source's `files`; these figures stand in only where neither is known.
 */

import type { Basis } from '../protocol/fit';
import { VOICES } from './voices';

export type { Basis };

export interface Figure {
  bytes: number;
  basis: Basis;
  /** Where the figure comes from, in words. */
  from: string;
}

const MB = 1e6;
const GB = 1e9;
const README = "the README's default-models table (rounded)";

/** The rounded download of a default source per dtype (every file the engine reads for it). */
export const DOWNLOADS: Readonly<Record<string, Readonly<Record<string, Figure>>>> = {
  'chat-v2': { q4f16: { bytes: 0.55 * GB, basis: 'catalogue', from: README } },
  'chat-v2-pro': { q4f16: { bytes: 1.2 * GB, basis: 'catalogue', from: README } },
  'code-v1': {
    fp32: { bytes: 2.0 * GB, basis: 'catalogue', from: README },
    fp16: { bytes: 1.0 * GB, basis: 'catalogue', from: README },
    q8: { bytes: 0.5 * GB, basis: 'catalogue', from: README },
    q4f16: { bytes: 0.46 * GB, basis: 'catalogue', from: README },
  },
  'speech-stt-v1': { q8: { bytes: 77 * MB, basis: 'catalogue', from: README } },
  'embed-v1': { q8: { bytes: 135 * MB, basis: 'catalogue', from: `${README}: q8 118 MB + tokenizer.json 17 MB` } },
  'image-v1': {
    fp16: {
      bytes: 2150 * MB,
      basis: 'catalogue',
      from: "the hub's listing of aislamov/lcm-dreamshaper-v7-onnx (rounded): UNet 93.7 MB + 1.64 GB model.onnx_data, text encoder 247 MB, VAE decoder 2.11 MB + 97.4 MB, tokenizer 1.6 MB; the VAE encoder's ≈ 68 MB is an estimate (an fp16 VAE encoder of this model elsewhere)",
    },
  },
};
/** code-v1's completion model is the same export's base model. */
const CODE_BASE = DOWNLOADS['code-v1']!;

/** Parameters of each default source, for a dtype the table above has no figure for. */
export const PARAMETERS: Readonly<Record<string, number>> = {
  'chat-v2': 0.6e9,
  'chat-v2-pro': 1.7e9,
  'agent-v1': 0.6e9,
  'code-v1': 0.49e9,
  'code-v1-base': 0.49e9,
  'speech-stt-v1': 74e6,
  'embed-v1': 118e6,
};

/**
 * Download bytes per parameter by dtype: code-v1's listed sizes over its 0.49 B parameters (q4 from
 * the bench's file of Qwen2.5-0.5B shapes, 768,673,375 bytes: its embeddings stay 8-bit).
 */
export const BYTES_PER_PARAMETER: Readonly<Record<string, number>> = {
  fp32: 4.08,
  fp16: 2.04,
  q8: 1.02,
  int8: 1.02,
  uint8: 1.02,
  q4: 1.57,
  q4f16: 0.94,
  bnb4: 0.94,
};

/** A default source's download for a dtype: the listed figure, else an estimate from its parameters. */
export function downloadFigure(model: string, dtype: string | undefined): Figure | undefined {
  const voice = voiceFigure(model);
  if (voice) return voice;
  const listed = model === 'code-v1-base' ? CODE_BASE : model === 'agent-v1' ? DOWNLOADS['chat-v2'] : DOWNLOADS[model];
  const known = dtype ? listed?.[dtype] : undefined;
  if (known) return known;
  const parameters = PARAMETERS[model];
  const perParameter = dtype ? BYTES_PER_PARAMETER[dtype] : undefined;
  if (!parameters || !perParameter) return undefined;
  return {
    bytes: Math.round(parameters * perParameter),
    basis: 'estimate',
    from: `${parameters / 1e9} B parameters × ${perParameter} bytes each for ${dtype} (code-v1's listed sizes per parameter)`,
  };
}

/** A neural voice family's weights (kokoro-82m, …): the largest of its voices' listed downloads (each voice adds its own style file). */
function voiceFigure(weights: string): Figure | undefined {
  const bytes = VOICES.flatMap((voice) =>
    voice.spec.engine !== 'espeak' && voice.spec.download.weights === weights ? [voice.spec.download.bytes] : [],
  );
  if (!bytes.length) return undefined;
  return { bytes: Math.max(...bytes), basis: 'catalogue', from: "the voice catalogue's listed files (rounded)" };
}

/**
 * The memory family of a neural voice family's weights (`vits-rasa-13` → 'vits'): the VITS engines
 * (Piper, sherpa-onnx's, transformers.js') share the architecture; undefined for eSpeak or an unknown id.
 */
export function voiceFamily(weights: string): string | undefined {
  const engine = VOICES.find((voice) => voice.spec.engine !== 'espeak' && voice.spec.download.weights === weights)?.spec
    .engine;
  return engine === 'piper' || engine === 'sherpa-vits' ? 'vits' : engine;
}

/** A bench measurement of a worker's peak memory for a model's weight files. */
interface Measured {
  model: string;
  /** The memory family (the catalogue layout): a measurement stands in, by its ratio, for others of it. */
  family: string;
  backend: 'wasm' | 'webgpu';
  dtype: string;
  /** Peak worker memory. */
  bytes: number;
  /** The weight files it was measured with. */
  weights: number;
  from: string;
}

const FIT_MEMORY = (shapes: string) =>
  `bench fit-memory, 2026-11-28 (${shapes}, random weights, 1 WASM thread): peak memory of Vaani's worker after one request`;
const GPU_MEMORY = (shapes: string) =>
  `bench/gpu on an NVIDIA H200, 2026-11-28 (${shapes}, random weights, onnxruntime-web's native WebGPU EP in Node through Dawn): host memory above the process's own, plus GPU memory in use, after one run`;
const CHAT_SCALING =
  "bench chat-scaling, 2026-11-28 (Qwen2.5-0.5B shapes, 24 layers, 2 WASM threads, the prompt prefilled in chunks of 128): peak memory of Vaani's chat worker after a 4,096-token context";

/**
 * What the bench measured (bench/results/latest.json): each default on WASM in the dtype the planner
 * picks there (fit-memory), and code-v1's other dtypes at a long context (chat-scaling); on WebGPU
 * (bench/gpu: bench/results/gpu-h200-capture-memory.json, IndicConformer's gpu-h200-memory-indic.json),
 * each default in the dtype the planner picks on an adapter without shader-f16, host and GPU memory
 * together (a phone's or laptop's GPU shares the device's memory).
 * speech-stt-v1's other families are known by their family's name (`indic-conformer`, `shruti`),
 * the voices by their weights (`vits-rasa-13`, `kokoro-82m`), a tier's own export (src/catalogue/tiers.ts)
 * by its repo (`onnx-community/whisper-tiny`).
 */
export const MEASURED: readonly Measured[] = [
  {
    model: 'chat-v2',
    family: 'chat',
    backend: 'wasm',
    dtype: 'q8',
    bytes: 1_222_061_166,
    weights: 596_515_415,
    from: FIT_MEMORY('Qwen3-0.6B shapes, 28 layers, q8'),
  },
  {
    model: 'code-v1',
    family: 'chat',
    backend: 'wasm',
    dtype: 'q8',
    bytes: 756_238_366,
    weights: 494_513_130,
    from: FIT_MEMORY('Qwen2.5-Coder-0.5B shapes, 24 layers, q8'),
  },
  {
    model: 'embed-v1',
    family: 'embeddings',
    backend: 'wasm',
    dtype: 'q8',
    bytes: 406_051_106,
    weights: 123_505_559,
    from: FIT_MEMORY('multilingual-e5-small shapes, 12 layers, 250,002-row vocabulary, q8'),
  },
  {
    model: 'speech-stt-v1',
    family: 'whisper',
    backend: 'wasm',
    dtype: 'q8',
    bytes: 319_471_936,
    weights: 78_716_766,
    from: FIT_MEMORY('whisper-base shapes, q8'),
  },
  {
    model: 'indic-conformer',
    family: 'indic-conformer',
    backend: 'wasm',
    dtype: 'int8',
    bytes: 1_798_630_046,
    weights: 870_558_376,
    from: FIT_MEMORY('IndicConformer 600M shapes, 24 layers, int8 MatMuls, CTC head, 11 s of Hindi'),
  },
  {
    model: 'shruti',
    family: 'moonshine',
    backend: 'wasm',
    dtype: 'q4',
    bytes: 294_962_572,
    weights: 85_919_162,
    from: FIT_MEMORY(
      "Shruti's widths and vocabulary in sherpa-onnx's Moonshine layout, int4 blocks, 11 s of Hindi; 86 MB of files against the card's 32 MB, so an upper bound",
    ),
  },
  {
    model: 'vits-rasa-13',
    family: 'vits',
    backend: 'wasm',
    dtype: 'fp32',
    bytes: 492_292_561,
    weights: 153_205_303,
    from: FIT_MEMORY("sherpa-onnx's VITS layout, 151 MB of fp32 weights, one Tamil sentence"),
  },
  {
    model: 'onnx-community/Qwen2.5-0.5B-Instruct',
    family: 'chat',
    backend: 'wasm',
    dtype: 'q8',
    bytes: 765_203_236,
    weights: 494_513_130,
    from: FIT_MEMORY('Qwen2.5-0.5B-Instruct shapes, 24 layers, q8, the small chat tier'),
  },
  {
    model: 'onnx-community/whisper-tiny',
    family: 'whisper',
    backend: 'wasm',
    dtype: 'q8',
    bytes: 219_786_343,
    weights: 41_834_221,
    from: FIT_MEMORY('whisper-tiny shapes, q8, the small transcription tier'),
  },
  {
    model: 'onnx-community/whisper-small',
    family: 'whisper',
    backend: 'wasm',
    dtype: 'q8',
    bytes: 657_860_231,
    weights: 253_150_572,
    from: FIT_MEMORY('whisper-small shapes, q8, the large transcription tier'),
  },
  {
    model: 'kokoro-82m',
    family: 'kokoro',
    backend: 'wasm',
    dtype: 'q8',
    bytes: 291_523_375,
    weights: 90_976_719,
    from: FIT_MEMORY(
      "Kokoro-82M's widths as dense q8 layers, not its LSTMs and convolutions, 91 MB; eSpeak-NG's phonemiser; one Hindi sentence",
    ),
  },
  {
    model: 'piper-te-padmavathi',
    family: 'vits',
    backend: 'wasm',
    dtype: 'fp32',
    bytes: 298_878_538,
    weights: 62_593_519,
    from: FIT_MEMORY("Piper's VITS layout, 62.6 MB of fp32 weights; eSpeak-NG's phonemiser; one Telugu sentence"),
  },
  {
    model: 'mms-tts-hin',
    family: 'vits',
    backend: 'wasm',
    dtype: 'q8',
    bytes: 105_103_628,
    weights: 37_990_698,
    from: FIT_MEMORY(
      "transformers.js' VITS layout as Xenova/mms-tts-hin's, dense q8 layers, 38 MB; one Hindi sentence",
    ),
  },
  {
    model: 'code-v1',
    family: 'chat',
    backend: 'wasm',
    dtype: 'q4',
    bytes: 1_777_534_521,
    weights: 768_673_375,
    from: CHAT_SCALING,
  },
  {
    model: 'code-v1',
    family: 'chat',
    backend: 'wasm',
    dtype: 'fp32',
    bytes: 3_129_638_047,
    weights: 1_976_292_160,
    from: CHAT_SCALING,
  },
  {
    model: 'chat-v2',
    family: 'chat',
    backend: 'webgpu',
    dtype: 'q4',
    bytes: 2_486_383_411,
    weights: 898_043_973,
    from: GPU_MEMORY('Qwen3-0.6B shapes, 28 layers, q4: 1,420 MiB host, 951 MiB GPU'),
  },
  {
    model: 'code-v1',
    family: 'chat',
    backend: 'webgpu',
    dtype: 'q4',
    bytes: 2_106_064_896,
    weights: 768_673_375,
    from: GPU_MEMORY('Qwen2.5-Coder-0.5B shapes, 24 layers, q4: 1,060 MiB host, 949 MiB GPU'),
  },
  {
    model: 'embed-v1',
    family: 'embeddings',
    backend: 'webgpu',
    dtype: 'fp32',
    bytes: 3_114_480_435,
    weights: 470_025_807,
    from: GPU_MEMORY('multilingual-e5-small shapes, 250,002-row vocabulary, fp32: 2,430 MiB host, 540 MiB GPU'),
  },
  {
    model: 'speech-stt-v1',
    family: 'whisper',
    backend: 'webgpu',
    dtype: 'fp32',
    bytes: 2_380_267_520,
    weights: 396_664_055,
    from: GPU_MEMORY('whisper-base shapes, fp32: 1,514 MiB host, 756 MiB GPU'),
  },
  {
    // 12 of the real model's 24 layers (one protobuf holds 2 GB at most): its ratio stands for the real model.
    model: 'indic-conformer-12-layers',
    family: 'indic-conformer',
    backend: 'webgpu',
    dtype: 'fp32',
    bytes: 3_516_714_189,
    weights: 1_257_734_153,
    from: GPU_MEMORY(
      "IndicConformer 600M's widths at 12 of its 24 layers, fp32, the encoder's weights one file per tensor as AI4Bharat's export, CTC head: 2,085 MiB host, 1,269 MiB GPU",
    ),
  },
];

/**
 * Memory per byte of weights by family and backend where the bench has no measurement of the
 * model itself, nor of its family on that backend near its size: every one an estimate, said so in
 * the plan. WebGPU: MEASURED's ratio of the family (2.7–6.6: the WASM heap keeps what it held while
 * the weights went to the GPU, and the GPU holds them again).
 */
export const MEMORY_RATIO: Readonly<Record<string, Readonly<Record<'wasm' | 'webgpu', number>>>> = {
  chat: { wasm: 2.9, webgpu: 2.8 },
  whisper: { wasm: 2.5, webgpu: 6 },
  embeddings: { wasm: 2, webgpu: 6.6 },
  /** WASM: IndicConformer and Shruti (Moonshine layout) in other dtypes, as embeddings' and Whisper's were. */
  'indic-conformer': { wasm: 2, webgpu: 2.8 },
  moonshine: { wasm: 2.5, webgpu: 2.5 },
  /** Not measured on WebGPU (fp16 needs shader-f16, which Dawn in Node lacked on the H200): chat's external-data ratio. */
  diffusion: { wasm: 2, webgpu: 2.8 },
};

/**
 * GPU memory that chat's graph capture adds per byte of weights: a second session of the graph and
 * the fixed cache (bench/gpu on an H200, 2026-11-28: 3,044 MiB in use against 1,693 uncaptured for
 * 741 MiB of files, a 1,088-token cache; 4,064 tokens added 72 MiB more).
 */
export const CAPTURE_RATIO = 1.82;

/** A chat model's figure on WebGPU with `graphCapture` on: an estimate, whatever the figure's own basis. */
export function withCapture(figure: Figure, weights: number): Figure {
  return {
    bytes: figure.bytes + Math.round(weights * CAPTURE_RATIO),
    basis: 'estimate',
    from: `${figure.from}; graph capture adds the weights × ${CAPTURE_RATIO} on the GPU (a second session and the fixed cache, bench/gpu on an H200)`,
  };
}

/** Families whose workers load onnxruntime-web's WASM build on every device: their WASM figures stand for WebGPU too. */
export const WASM_ONLY_FAMILIES: ReadonlySet<string> = new Set(['moonshine', 'kokoro', 'vits']);
const FP32_CHAT_RATIO = 1.7;

/**
 * The memory a model needs on a backend for `weights` bytes of files; `catalogueWeights`: the files
 * are the default source's, so a measurement of that model applies as it is.
 */
export function memoryFigure(
  model: string,
  family: string | undefined,
  asked: 'wasm' | 'webgpu',
  dtype: string | undefined,
  weights: number,
  catalogueWeights = true,
): Figure | undefined {
  const backend = family && WASM_ONLY_FAMILIES.has(family) ? 'wasm' : asked;
  const measured = MEASURED.find(
    (m) =>
      catalogueWeights &&
      (m.model === model || (model === 'code-v1-base' && m.model === 'code-v1')) &&
      m.backend === backend &&
      m.dtype === dtype,
  );
  if (measured) return { bytes: measured.bytes, basis: 'measured', from: measured.from };
  // Another model of a measured family and dtype within half to twice its size: the ratio (worker
  // memory per byte of weights) of the measured model nearest it in size. A ratio is not carried
  // further (a 1.7 B model from a 0.6 B one): the family's ratio below stands instead.
  const like = MEASURED.filter(
    (m) =>
      m.family === family &&
      m.backend === backend &&
      m.dtype === dtype &&
      weights >= m.weights / 2 &&
      weights <= m.weights * 2,
  ).sort((a, b) => Math.abs(a.weights - weights) - Math.abs(b.weights - weights))[0];
  if (like) {
    const ratio = like.bytes / like.weights;
    return {
      bytes: Math.round(weights * ratio),
      basis: 'estimate',
      from: `the weights × ${ratio.toFixed(2)}, ${like.model}'s measured ratio for ${dtype} on ${backend} (${like.from})`,
    };
  }
  const ratios = family ? MEMORY_RATIO[family] : undefined;
  if (!ratios) return undefined;
  const ratio = family === 'chat' && backend === 'wasm' && dtype === 'fp32' ? FP32_CHAT_RATIO : ratios[backend];
  const ofFamily = MEASURED.some((m) => m.family === family && m.backend === backend);
  return {
    bytes: Math.round(weights * ratio),
    basis: 'estimate',
    from: ofFamily
      ? `the weights × ${ratio}, the ratio measured for ${family} on ${backend} in another dtype or size (an estimate)`
      : `the weights × ${ratio} (an estimate for ${family} on ${backend}: the bench has no measurement of it)`,
  };
}
