/**
 * Small / medium / large defaults per product (`plan.tier`, `createVaani({ fit: { tier } })`): each
 * a real export in a layout Vaani loads, with its licence and its download per dtype as the
 * catalogue states it (rounded; an estimate from its parameters where no figure is listed). Medium
 * is the catalogue's default source (`families.ts`); the planner (src/common/fit/tiers.ts) picks one
 * by device. Memory per tier comes from `memoryFigure` (src/catalogue/fit.ts).
 */
import type { ModelSource } from '../protocol/options';
import type { Tier, TierProduct } from '../protocol/fit';
import { UNPINNED } from './families';
import { INDIC_DOWNLOAD } from './sources';
import { INDIC_CODES } from './languages/indic-conformer';
import { WHISPER_LANGUAGES } from './languages/whisper';
import { SHRUTI_BYTES, SHRUTI_CODES, SHRUTI_DTYPE } from './shruti';

export type { Tier, TierProduct };

export const TIERS: readonly Tier[] = ['small', 'medium', 'large'];
export const TIER_PRODUCTS: readonly TierProduct[] = ['chat', 'transcription', 'speech', 'embeddings', 'images'];

const MB = 1e6;
const GB = 1e9;

export interface TierEntry {
  tier: Tier;
  model: string;
  /**
   * What the engine loads for this tier, written over the catalogue default: undefined for the
   * default itself (medium), null where the tier loads no model of its own (the voice picks it).
   */
  source: ModelSource | undefined | null;
  repo: string | null;
  license: string | null;
  commercial: boolean | null;
  /** Rounded download per dtype (every file the engine reads), as the catalogue states it. */
  download: Readonly<Record<string, number>>;
  /** Parameters, for a dtype `download` has no figure for (an estimate). */
  parameters?: number;
  /** Memory family (src/catalogue/fit.ts MEMORY_RATIO). */
  family: 'chat' | 'whisper' | 'embeddings' | 'diffusion' | 'voice';
  /** Runs only on WebGPU with shader-f16 (an fp16-only export). */
  needsF16?: boolean;
  /** Bytes added per backend for some languages (IndicConformer for the 22 scheduled languages), counted when sizing the tier. */
  extra?: {
    /** The backend it runs on when the page leaves `backend` to 'auto', where not the tier's own. */
    auto?: 'wasm';
    bytes: Readonly<Record<'wasm' | 'webgpu', number>>;
    memory: { model: string; family: string; dtype: Readonly<Record<'wasm' | 'webgpu', string>> };
    what: string;
  };
  languages?: string;
  /** Where the figures come from, in words. */
  from: string;
}

const README = "the README's default-models table (rounded)";
const QWEN25 =
  "the export's listed sizes (docs: Qwen2.5-0.5B-Instruct fp32 1.99 GB, fp16 997 MB, q8 512 MB, q4 786 MB, q4f16 483 MB)";
/** IndicConformer's int8 encoder and CTC head (src/catalogue/sources.ts INDIC_SOURCES), for the 22 scheduled languages. */
const INDIC = {
  /** Under 'auto' the default is the int8 copy, which runs on WASM (src/catalogue/sources.ts speechSources). */
  auto: 'wasm',
  bytes: { wasm: INDIC_DOWNLOAD.int8.bytes, webgpu: INDIC_DOWNLOAD.fp32.bytes },
  /** memoryFigure's model, family and dtype per backend (fit.ts: IndicConformer int8 on WASM is measured). */
  memory: { model: 'indic-conformer', family: 'indic-conformer', dtype: { wasm: 'int8', webgpu: 'fp32' } },
  what: "IndicConformer for the 22 scheduled languages: int8 882 MB + 23 MB CTC head on WASM, fp32 ≈ 2.4 GB + 90 MB RNN-T graphs on WebGPU where the page sets backend 'webgpu'",
} as const;

/**
 * The small tier's scheduled languages: Shruti's compact model (src/catalogue/shruti.ts) where one
 * is catalogued, else Whisper tiny where Whisper knows the language, else IndicConformer.
 */
const SHRUTI_INDIC = INDIC_CODES.filter((code) => SHRUTI_CODES.includes(code));
const WHISPER_INDIC = INDIC_CODES.filter(
  (code) => !SHRUTI_INDIC.includes(code) && WHISPER_LANGUAGES.some(([whisper]) => whisper === code),
);
const ONLY_INDIC = INDIC_CODES.filter((code) => !SHRUTI_INDIC.includes(code) && !WHISPER_INDIC.includes(code));
/** One Shruti model, the one per language a page uses at a time (the worker keeps the last one loaded). */
const SHRUTI_EXTRA = {
  bytes: { wasm: SHRUTI_BYTES, webgpu: SHRUTI_BYTES },
  memory: { model: 'shruti', family: 'moonshine', dtype: { wasm: SHRUTI_DTYPE, webgpu: SHRUTI_DTYPE } },
  what: `one Shruti model (${SHRUTI_BYTES / MB} MB, Apache-2.0) per Indian language used: ${SHRUTI_INDIC.join(', ')}`,
} as const;

/** The tiers of each product, small first. A product lists only tiers with a real export; a missing tier takes the nearest one. */
export const TIER_TABLE: Readonly<Record<TierProduct, { id: string; tiers: readonly TierEntry[]; note?: string }>> = {
  chat: {
    id: 'chat-v2',
    tiers: [
      {
        tier: 'small',
        model: 'Qwen2.5-0.5B-Instruct',
        source: { repo: 'onnx-community/Qwen2.5-0.5B-Instruct', revision: UNPINNED },
        repo: 'onnx-community/Qwen2.5-0.5B-Instruct',
        license: 'Apache-2.0',
        commercial: true,
        download: { q8: 512 * MB, q4f16: 483 * MB, q4: 786 * MB, fp16: 997 * MB, fp32: 1.99 * GB },
        parameters: 0.49e9,
        family: 'chat',
        languages: '29 languages incl. Hindi, Bengali, Urdu (fewer Indian languages than Qwen3)',
        from: QWEN25,
      },
      {
        tier: 'medium',
        model: 'Qwen3-0.6B',
        source: undefined,
        repo: 'onnx-community/Qwen3-0.6B-ONNX',
        license: 'Apache-2.0',
        commercial: true,
        download: { q4f16: 550 * MB },
        parameters: 0.6e9,
        family: 'chat',
        languages: '119 languages incl. Hindi, Bengali, Tamil, Telugu, Marathi, Gujarati',
        from: README,
      },
      {
        tier: 'large',
        model: 'Qwen3-1.7B',
        source: { repo: 'onnx-community/Qwen3-1.7B-ONNX', revision: UNPINNED },
        repo: 'onnx-community/Qwen3-1.7B-ONNX',
        license: 'Apache-2.0',
        commercial: true,
        download: { q4f16: 1.2 * GB },
        parameters: 1.7e9,
        family: 'chat',
        languages: '119 languages, as medium',
        from: README,
      },
    ],
  },
  transcription: {
    id: 'speech-stt-v1',
    tiers: [
      {
        tier: 'small',
        model: 'Whisper tiny + Shruti',
        source: {
          repo: 'onnx-community/whisper-tiny',
          revision: UNPINNED,
          languages: Object.fromEntries([
            ...SHRUTI_INDIC.map((code) => [code, 'shruti']),
            ...WHISPER_INDIC.map((code) => [code, 'whisper']),
          ]),
        } as ModelSource,
        repo: 'onnx-community/whisper-tiny',
        license: 'Apache-2.0',
        commercial: true,
        download: {},
        parameters: 39e6,
        family: 'whisper',
        extra: SHRUTI_EXTRA,
        languages: `Shruti (${SHRUTI_BYTES / MB} MB a language, Apache-2.0) for ${SHRUTI_INDIC.join(', ')}; Whisper tiny for every other language Whisper knows, ${WHISPER_INDIC.join(', ')} too (lower accuracy than IndicConformer); IndicConformer int8 (905 MB) only for ${ONLY_INDIC.join(', ')}, which neither has`,
        from: "an estimate: Whisper tiny's 39 M parameters at whisper-base's listed bytes per parameter; Shruti: the Shruti-ONNX card's 32 MB per language",
      },
      {
        tier: 'medium',
        model: 'Whisper base + IndicConformer',
        source: undefined,
        repo: 'onnx-community/whisper-base',
        license: 'Apache-2.0 (Whisper), MIT (IndicConformer)',
        commercial: true,
        download: { q8: 77 * MB },
        parameters: 74e6,
        family: 'whisper',
        extra: INDIC,
        languages:
          'Whisper base for ~90 languages; IndicConformer for the 22 scheduled languages (int8 on WASM, fp32 2.4 GB on WebGPU)',
        from: README,
      },
      {
        tier: 'large',
        model: 'Whisper small + IndicConformer',
        source: { repo: 'onnx-community/whisper-small', revision: UNPINNED } as ModelSource,
        repo: 'onnx-community/whisper-small',
        license: 'Apache-2.0 (Whisper), MIT (IndicConformer)',
        commercial: true,
        download: {},
        parameters: 244e6,
        family: 'whisper',
        extra: INDIC,
        languages: 'Whisper small for ~90 languages; IndicConformer for the 22 scheduled languages, as medium',
        from: "an estimate: Whisper small's 244 M parameters at whisper-base's listed bytes per parameter",
      },
    ],
  },
  speech: {
    id: 'speech-tts-v1',
    note: 'The request names the voice; the tier says which voices fit this device.',
    tiers: [
      {
        tier: 'small',
        model: 'eSpeak NG voices',
        source: null,
        repo: null,
        license: 'GPL-3.0-or-later (the optional plug-in)',
        commercial: true,
        download: {},
        family: 'voice',
        languages: '15 Indian languages and 3 English accents; no model download (the page serves the plug-in)',
        from: 'the voice catalogue (no model files)',
      },
      {
        tier: 'medium',
        model: 'Neural voices (Kokoro Hindi, AI4Bharat Rasa, Piper Telugu)',
        source: null,
        repo: 'onnx-community/Kokoro-82M-v1.0-ONNX',
        license: 'Apache-2.0 (Kokoro), CC-BY-4.0 (Rasa), not confirmed (Piper Telugu)',
        commercial: true,
        download: { q8: 150 * MB },
        family: 'voice',
        languages: 'Hindi: Kokoro q8 ≈ 92 MB; 13 languages: vits-rasa-13 ≈ 150 MB; Telugu: Piper ≈ 64 MB',
        from: "the voice catalogue's listed files (rounded): the largest, vits-rasa-13",
      },
    ],
  },
  embeddings: {
    id: 'embed-v1',
    note: 'Never switched by device: vectors stored with one model cannot be searched with another. Large only where the app asks.',
    tiers: [
      {
        tier: 'medium',
        model: 'multilingual-e5-small',
        source: undefined,
        repo: 'Xenova/multilingual-e5-small',
        license: 'MIT',
        commercial: true,
        download: { q8: 135 * MB },
        parameters: 118e6,
        family: 'embeddings',
        languages: '~94 languages, 384 dimensions, 512 tokens',
        from: `${README}: q8 118 MB + tokenizer.json 17 MB`,
      },
      {
        tier: 'large',
        model: 'bge-m3',
        source: { repo: 'Xenova/bge-m3', revision: UNPINNED, embedding: { prefixes: { query: '', passage: '' } } },
        repo: 'Xenova/bge-m3',
        license: 'MIT',
        commercial: true,
        download: { q8: 570 * MB },
        parameters: 568e6,
        family: 'embeddings',
        languages: '100+ languages, 1024 dimensions, 8,192 tokens',
        from: README,
      },
    ],
  },
  images: {
    id: 'image-v1',
    note: 'One export in a layout Vaani loads with a licence that allows commercial use; WebGPU with shader-f16 only.',
    tiers: [
      {
        tier: 'medium',
        model: 'LCM Dreamshaper v7 (fp16)',
        source: undefined,
        repo: 'aislamov/lcm-dreamshaper-v7-onnx',
        license: 'CreativeML-OpenRAIL-M',
        commercial: true,
        download: { fp16: 2150 * MB },
        family: 'diffusion',
        needsF16: true,
        languages: 'English prompts (CLIP), 512×512',
        from: "the hub's listing (rounded), see image-v1",
      },
    ],
  },
};

/** The tiered product whose catalogue id is `id` (the files' owner: agent-v1 → chat-v2). */
export const tierProductOf = (id: string): TierProduct | undefined =>
  TIER_PRODUCTS.find((product) => TIER_TABLE[product].id === id);

/** The tier entry a product has for `tier`, else the nearest it lists (a smaller one first). */
export function tierEntry(product: TierProduct, tier: Tier): TierEntry {
  const tiers = TIER_TABLE[product].tiers;
  const at = TIERS.indexOf(tier);
  const byDistance = [...tiers].sort(
    (a, b) =>
      Math.abs(TIERS.indexOf(a.tier) - at) - Math.abs(TIERS.indexOf(b.tier) - at) ||
      TIERS.indexOf(a.tier) - TIERS.indexOf(b.tier),
  );
  return byDistance[0]!;
}

/** Bytes per parameter by dtype (src/catalogue/fit.ts); whisper-base's 77 MB over 74 M parameters for its q8. */
const WHISPER_Q8_PER_PARAMETER = (77 * MB) / 74e6;

/** A tier's download for a dtype: listed, else parameters × bytes per parameter (`estimate`). */
export function tierDownload(
  entry: TierEntry,
  dtype: string | null,
  perParameter: Readonly<Record<string, number>>,
): { bytes: number | null; basis: 'catalogue' | 'estimate' | 'none' } {
  if (entry.family === 'voice') {
    const largest = Math.max(0, ...Object.values(entry.download));
    return largest ? { bytes: largest, basis: 'catalogue' } : { bytes: 0, basis: 'none' };
  }
  const listed = dtype ? entry.download[dtype] : undefined;
  if (listed !== undefined) return { bytes: listed, basis: 'catalogue' };
  if (!entry.parameters || !dtype) return { bytes: null, basis: 'none' };
  const ratio = entry.family === 'whisper' && dtype === 'q8' ? WHISPER_Q8_PER_PARAMETER : perParameter[dtype];
  return ratio ? { bytes: Math.round(entry.parameters * ratio), basis: 'estimate' } : { bytes: null, basis: 'none' };
}

/** The tier entry whose files a source names (a tier's repo), for the plan's catalogue size. */
export const tierOfRepo = (repo: string | undefined): { product: TierProduct; entry: TierEntry } | undefined => {
  if (!repo) return undefined;
  for (const product of TIER_PRODUCTS)
    for (const entry of TIER_TABLE[product].tiers) if (entry.repo === repo) return { product, entry };
  return undefined;
};
