import { defaultModel, entryOf, findModel, layoutOf, PRODUCTS, sourceOf, type Product } from '../../catalogue/families';
import { BYTES_PER_PARAMETER, downloadFigure, memoryFigure, voiceFamily, withCapture } from '../../catalogue/fit';
import { tierDownload, tierOfRepo } from '../../catalogue/tiers';
import {
  filesOwner,
  INDIC_DOWNLOAD,
  INDIC_SOURCES,
  modelSource,
  sourceBase,
  speechRecognitionSources,
} from '../../catalogue/sources';
import { modelsOf } from '../../catalogue/families';
import { SHRUTI_BYTES, SHRUTI_DTYPE, SHRUTI_REPO } from '../../catalogue/shruti';
import { voiceWeights } from '../../catalogue/voices';
import { QUANTISED_DTYPES, backendAttempts } from '../../common/backends/plan';
import { fp16Refusal } from '../../common/backends/fp16';
import { decide, downloadSeconds, formatSize, unreported, type DeviceFacts } from '../../common/fit/decide';
import { deviceFacts } from '../../common/fit/device';
import { meteredPolicy } from '../../common/fit/policy';
import { fetchFolderManifest, isFolderBase, persistState, recordedFiles, type Models } from '../../common/weights';
import { DTYPE_SUFFIX } from '../../common/layouts/onnx';
import type { ModelSource, SpeechRecognitionSource, VaaniOptions } from '../../protocol/options';
import type { EngineChoice } from '../../protocol/options';
import type { ModelPlan, PlanFor } from '../../protocol/fit';
import type { SttEngine } from '../../protocol/transcription';
import { engineFor } from '../engines/_stt-routing';
import type { Tiers } from './tiers';

/** The model a product plans by default (`ai.plan('chat')`). */
const PRODUCT_ROLE: Readonly<Record<Product, string>> = {
  chat: 'widget:chat',
  voice: 'widget:transcription',
  image: '/images/generations',
  code: '/code/completions',
  agents: '/agents/run',
  memory: '/memory',
  data: '/files',
};

export type { ModelPlan };

export interface PlanContext {
  options: VaaniOptions;
  models: Models;
  remote: boolean;
  order(modelId: string): EngineChoice[];
  builtin(): Promise<string>;
  /** Whether a local engine answers the id in this build. */
  local(modelId: string): boolean;
  /** For tests: the facts instead of the browser's. */
  device?: () => Promise<DeviceFacts>;
  /** The tiers of this Vaani (picked on a product's first plan and applied to `options.models`). */
  tiers?: Tiers;
  /** Cached bytes this page last saw per model files (`cacheKey`): fewer now means the browser evicted them. */
  seen?: Map<string, number>;
  /** Told when a plan finds a model's cached files evicted (the download policy forgets its answer). */
  evicted?(id: string): void;
}

/**
 * What a plan covers: speech-stt-v1 reads several families' files, Whisper's (its own source),
 * IndicConformer's (the gate's part 'indic-conformer') and a Shruti model per language
 * ('shruti:<code>'), each planned and gated before that family starts.
 */
export interface PlanPart extends PlanFor {
  engine?: SttEngine;
}

/** The gate's name for a part of a model's files, as a plan's `on` (`shruti:ta` → Shruti for Tamil). */
export function partOf(part?: string): PlanPart {
  if (!part) return {};
  const [engine, language] = part.split(':') as [SttEngine, string | undefined];
  return language ? { engine, language } : { engine };
}

const isStt = (id: string) => (modelsOf('transcription') as readonly string[]).includes(id);

type SttPart = { engine: 'indic-conformer' | 'shruti'; source: ModelSource & { folder?: string } };

/** The family a speech-stt-v1 plan is for where it is not Whisper: IndicConformer, or a language's Shruti model. */
function sttPart(ctx: Pick<PlanContext, 'options'>, id: string, on: PlanPart): SttPart | undefined {
  if (!isStt(id)) return undefined;
  const sources = speechRecognitionSources(ctx.options, id);
  const config = { indic: !!sources.indic, languages: sources.languages, shruti: Object.keys(sources.shruti) };
  const engine = on.engine ?? (on.language ? engineFor(on.language, config) : 'whisper');
  if (engine === 'indic-conformer' && sources.indic) return { engine, source: sources.indic };
  const shruti = on.language ? sources.shruti[on.language] : undefined;
  if (engine === 'shruti' && shruti) return { engine, source: shruti };
  return undefined;
}

/** Where a source's files are: its base, and a hub folder under it (a Shruti language's `<code>/sherpa-onnx/`). */
const baseOf = (source: ModelSource & { folder?: string }) =>
  source.folder && !source.baseURL ? new URL(source.folder, sourceBase(source)).href : sourceBase(source);

/** Whisper's source where speech-stt-v1 names it apart (`whisper: { baseURL }`): the engine reads those files. */
function whisperPart(ctx: Pick<PlanContext, 'options'>, id: string): ModelSource | undefined {
  return isStt(id) && (ctx.options.models?.[id] as SpeechRecognitionSource | undefined)?.whisper
    ? speechRecognitionSources(ctx.options, id).whisper
    : undefined;
}

/** The key of a model's files in `PlanContext.seen`: the id that owns them and their base URL. */
export function cacheKey(ctx: Pick<PlanContext, 'options'>, id: string, on: PlanPart = {}): string {
  const owner = filesOwner(id, ctx.options.models);
  let base = '';
  try {
    base = baseOf(sttPart(ctx, id, on)?.source ?? whisperPart(ctx, id) ?? modelSource(id, ctx.options.models));
  } catch {
    // No source: nothing cached.
  }
  return `${owner} ${base}`;
}

/** Notes the bytes now cached for a model's files (after its engine read them), for eviction checks. */
export async function noteCached(ctx: PlanContext, id: string, on: PlanPart = {}): Promise<void> {
  if (!ctx.seen) return;
  const key = cacheKey(ctx, id, on);
  const [owner, base] = key.split(' ') as [string, string];
  if (!base) return;
  const recorded = await recordedFiles(owner, base).catch(() => []);
  ctx.seen.set(
    key,
    recorded.reduce((sum, f) => sum + f.bytes, 0),
  );
}

/** The catalogue id an id, an alias or a product names; undefined for an unknown one. */
export function planTarget(idOrProduct: string): string | undefined {
  if ((PRODUCTS as readonly string[]).includes(idOrProduct)) return defaultModel(PRODUCT_ROLE[idOrProduct as Product]);
  return findModel(idOrProduct)?.id;
}

const DTYPE_OF_SUFFIX = Object.fromEntries(Object.entries(DTYPE_SUFFIX).map(([dtype, suffix]) => [suffix, dtype]));
/** The dtype of a file list: the suffix of its ONNX graphs (`model_quantized.onnx` → q8). */
function dtypeOf(names: string[]): string | undefined {
  for (const name of names) {
    const suffix = name.match(/model(_[a-z0-9]+)?\.onnx$/)?.[1] ?? (name.endsWith('.onnx') ? '' : undefined);
    if (suffix !== undefined && DTYPE_OF_SUFFIX[suffix] !== undefined) return DTYPE_OF_SUFFIX[suffix];
  }
  return undefined;
}

/** Voices and transforms run on the voice catalogue's files, which depend on the voice. */
const needsSource = (id: string) =>
  (entryOf(id)?.engines ?? []).some((kind) => kind !== 'speech' && kind !== 'transform');

interface Sized {
  bytes: number | null;
  cached: number;
  exact: boolean;
  basis: ModelPlan['download']['basis'];
  from: string;
  dtype: string | null;
  files?: ModelPlan['download']['files'];
}

/** The download: from a listing (source `files`, a folder manifest) via the store's status, else the cache's record, else the catalogue. */
async function sized(
  ctx: PlanContext,
  id: string,
  owner: string,
  source: ModelSource,
  base: string,
  dtype: string | undefined,
): Promise<Sized> {
  const listing = source.files
    ? 'files'
    : isFolderBase(base) && (await fetchFolderManifest(base).catch(() => undefined))
      ? 'manifest'
      : undefined;
  if (listing) {
    const status = await ctx.models.status(id).catch(() => undefined);
    if (status) {
      // A manifest lists every file the folder has: an optional file it lacks is not read.
      const files = status.files
        .filter((f) => listing === 'files' || f.size !== undefined || f.bytes > 0)
        .map((f) => ({ name: f.file, size: f.size ?? null, cached_bytes: f.bytes }));
      const exact = files.every((f) => f.size !== null);
      return {
        bytes: exact ? files.reduce((sum, f) => sum + f.size!, 0) : null,
        cached: files.reduce((sum, f) => sum + f.cached_bytes, 0),
        exact,
        basis: listing,
        from: listing === 'files' ? "the source's `files`" : `${base}vaani-manifest.json`,
        dtype: dtypeOf(files.map((f) => f.name)) ?? dtype ?? null,
        files,
      };
    }
  }
  const recorded = await recordedFiles(owner, base).catch(() => []);
  const cached = recorded.reduce((sum, f) => sum + f.bytes, 0);
  const recordedDtype = dtypeOf(recorded.map((f) => f.file));
  if (
    recorded.length &&
    recorded.every((f) => f.state === 'cached') &&
    recordedDtype &&
    (!dtype || recordedDtype === dtype || !source.dtype)
  )
    return {
      bytes: cached,
      cached,
      exact: true,
      basis: 'cache',
      from: 'the files this browser cached for it',
      dtype: recordedDtype,
      files: recorded.map((f) => ({ name: f.file, size: f.size ?? null, cached_bytes: f.bytes })),
    };
  const catalogueSource = sourceOf(owner) ?? voiceWeights(owner);
  const isDefault = !source.baseURL && !source.files && source.repo === catalogueSource?.repo;
  const tier = !source.baseURL && !source.files ? tierOfRepo(source.repo) : undefined;
  const tierSize = tier && !isDefault ? tierDownload(tier.entry, dtype ?? null, BYTES_PER_PARAMETER) : undefined;
  const figure = isDefault
    ? downloadFigure(owner, dtype)
    : tierSize?.bytes
      ? {
          bytes: tierSize.bytes,
          basis: tierSize.basis as 'catalogue' | 'estimate',
          from: `catalogue size: ${tier!.entry.from}`,
        }
      : undefined;
  if (figure)
    return { bytes: figure.bytes, cached, exact: false, basis: figure.basis, from: figure.from, dtype: dtype ?? null };
  // Without a listing the engine takes the first dtype the source turns out to have.
  return unsized(base, cached, source.dtype ?? null, 'npx vaani pull', 'createVaani({ models })');
}

/** No size is known: where one would come from, in words. */
const unsized = (base: string, cached: number, dtype: string | null, pull: string, list: string): Sized => ({
  bytes: null,
  cached,
  exact: false,
  basis: 'unknown',
  from: isFolderBase(base)
    ? `${base} has no vaani-manifest.json (${pull} writes one) and the source lists no files`
    : `the catalogue has no size for this source and dtype: list its files with sizes in ${list}`,
  dtype,
});

/**
 * One family's download where speech-stt-v1 names its source apart (`indic`, `whisper`): the source's
 * `files` or folder manifest, else the catalogue's figure for a default source (`figure`).
 */
async function sizedPart(
  owner: string,
  source: ModelSource,
  base: string,
  family: 'indic' | 'whisper' | 'shruti',
  figure: { bytes: number; from: string; basis: Sized['basis'] } | undefined,
): Promise<Sized> {
  const recorded = await recordedFiles(owner, base).catch(() => []);
  const cached = recorded.reduce((sum, f) => sum + f.bytes, 0);
  const manifest =
    source.files || !isFolderBase(base) ? undefined : await fetchFolderManifest(base).catch(() => undefined);
  const listed = source.files
    ? source.files.map((f) =>
        typeof f === 'string' ? { name: f, size: null } : { name: f.name, size: f.size ?? null },
      )
    : manifest?.files.map((f) => ({ name: f.name, size: f.size }));
  const dtype = source.dtype ?? null;
  if (listed) {
    const files = listed.map((f) => ({ ...f, cached_bytes: recorded.find((r) => r.file === f.name)?.bytes ?? 0 }));
    const exact = files.every((f) => f.size !== null);
    return {
      bytes: exact ? files.reduce((sum, f) => sum + f.size!, 0) : null,
      cached,
      exact,
      basis: source.files ? 'files' : 'manifest',
      from: source.files ? "the source's `files`" : `${base}vaani-manifest.json`,
      dtype,
      files,
    };
  }
  if (figure) return { bytes: figure.bytes, from: figure.from, basis: figure.basis, cached, exact: false, dtype };
  return unsized(
    base,
    cached,
    dtype,
    `npx vaani pull speech-stt-v1${family === 'indic' ? ' --indic' : ''}`,
    `createVaani({ models: { 'speech-stt-v1': { ${family}: { files } } } })`,
  );
}

/** The catalogue's figure for a default Shruti source (the Shruti-ONNX card's one figure for every language). */
function shrutiFigure(source: ModelSource) {
  return !source.baseURL && !source.files && source.repo === SHRUTI_REPO
    ? {
        bytes: SHRUTI_BYTES,
        from: `the catalogue: the Shruti-ONNX card's "32 MB per language" (this folder's own size not confirmed)`,
        basis: 'catalogue' as const,
      }
    : undefined;
}

/** A plan's model in words: the id, and the family for a part of speech-stt-v1's files ("speech-stt-v1 (IndicConformer)"). */
export function planName(plan: Pick<ModelPlan, 'model' | 'part'>): string {
  const part = plan.part;
  if (!part || part.engine === 'whisper') return plan.model;
  return part.engine === 'shruti' ? `${plan.model} (Shruti, ${part.language})` : `${plan.model} (IndicConformer)`;
}

/** The catalogue's figure for a default IndicConformer source. */
function indicFigure(source: ModelSource) {
  const dtype = (['int8', 'fp32'] as const).find(
    (d) => !source.baseURL && source.repo === INDIC_SOURCES[d].repo && (source.dtype ?? d) === d,
  );
  return dtype ? { ...INDIC_DOWNLOAD[dtype], basis: 'catalogue' as const } : undefined;
}

const deviceView = (device: DeviceFacts): ModelPlan['device'] => ({
  memory_bytes: device.memory ?? null,
  gpu:
    device.gpu === undefined
      ? null
      : device.gpu === null
        ? { adapter: false, f16: false, max_buffer_size: 0, max_storage_buffer_binding_size: 0 }
        : {
            adapter: true,
            f16: device.gpu.f16,
            max_buffer_size: device.gpu.maxBufferSize,
            max_storage_buffer_binding_size: device.gpu.maxStorageBufferBindingSize,
          },
  cross_origin_isolated: device.crossOriginIsolated,
  wasm_threads: device.crossOriginIsolated,
  storage: device.storage
    ? {
        quota: device.storage.quota ?? null,
        usage: device.storage.usage ?? null,
        persisted: device.storage.persisted ?? null,
      }
    : null,
});

/**
 * Plans a catalogue id (resolve aliases and products with `planTarget` first). Reads no model file.
 * speech-stt-v1 plans Whisper's files, or IndicConformer's for a language routed there (`on`).
 */
export async function planModel(ctx: PlanContext, id: string, on: PlanPart = {}): Promise<ModelPlan> {
  const device = await (ctx.device ?? deviceFacts)();
  // The tier is picked (and its source applied) before the source is read.
  const tier = ctx.tiers?.plan(id, device);
  const order = ctx.order(id);
  const remote = ctx.remote && order.includes('remote');
  const owner = filesOwner(id, ctx.options.models);
  const entry = entryOf(id);
  let source: ModelSource | undefined;
  try {
    source = modelSource(id, ctx.options.models);
  } catch {
    source = undefined;
  }
  // A neural voice family's weights (kokoro-82m, …): what the speech engine loads for its voices.
  const voice = entry ? undefined : voiceWeights(id);
  if (voice) source = ctx.options.models?.[id] ?? { repo: voice.repo, revision: voice.revision };
  // A voice's files are one export: their own dtype (Rasa's model.onnx is fp32), not the backend's.
  const voiceDtype = voice ? dtypeOf(voice.files.map((f) => f.name)) : undefined;
  const stt = isStt(id);
  const part = sttPart(ctx, id, on);
  if (part) source = part.source;
  const whisper = part ? undefined : whisperPart(ctx, id);
  if (whisper) source = whisper;
  const base = source ? baseOf(source) : '';
  const choice = ctx.options.backend ?? 'auto';
  let noSource: string | undefined;
  let attempt: { backend: 'webgpu' | 'wasm'; dtypes: readonly string[] } = { backend: 'wasm', dtypes: [] };
  try {
    const attempts = backendAttempts(
      choice,
      device.gpu ? { f16: device.gpu.f16, fallback: device.gpu.fallback ?? false } : undefined,
      source?.dtype,
    );
    // IndicConformer's quantised copies (the default's int8 under 'auto') run on WASM only, as its worker does.
    const runs =
      part?.engine === 'indic-conformer' && source?.dtype && QUANTISED_DTYPES.has(source.dtype)
        ? attempts.filter((a) => a.backend === 'wasm')
        : [];
    attempt = runs[0] ?? attempts[0]!;
  } catch (error) {
    noSource = (error as Error).message;
  }
  // A diffusion export fixed to fp16 (image-v1's default) runs only on WebGPU with shader-f16.
  const needsWebGpu =
    layoutOf(owner) === 'diffusion'
      ? fp16Refusal(
          source?.dtype,
          choice,
          device.gpu ? { f16: device.gpu.f16, fallback: device.gpu.fallback ?? false } : undefined,
        )
      : undefined;
  if (!source && needsSource(id))
    noSource ??= `No weights are configured for ${id}: name an export in createVaani({ models: { '${id}': { baseURL } } }).`;
  const size: Sized =
    source && !noSource
      ? part?.engine === 'indic-conformer'
        ? await sizedPart(owner, source, base, 'indic', indicFigure(source))
        : part
          ? await sizedPart(owner, source, base, 'shruti', shrutiFigure(source))
          : whisper
            ? await sizedPart(
                owner,
                source,
                base,
                'whisper',
                !source.baseURL && !source.files && source.repo === sourceOf(owner)?.repo
                  ? downloadFigure(owner, attempt.dtypes[0])
                  : undefined,
              )
            : await sized(ctx, id, owner, source, base, voiceDtype ?? attempt.dtypes[0])
      : {
          bytes: entry?.builtin ? 0 : null,
          cached: 0,
          exact: Boolean(entry?.builtin),
          basis: needsSource(id) ? 'unknown' : 'none',
          from: entry?.builtin
            ? "the browser's own model: nothing to download"
            : needsSource(id)
              ? 'no source'
              : "the voice's files (see GET /v1/voices)",
          dtype: null,
        };
  const remaining = size.bytes === null ? null : Math.max(0, size.bytes - size.cached);
  // Fewer bytes cached than this page saw: the browser evicted them; planned again from here.
  const key = `${owner} ${base}`;
  const expected = ctx.seen?.get(key) ?? 0;
  const evicted = source && expected > size.cached ? expected - size.cached : 0;
  if (source) ctx.seen?.set(key, size.cached);
  if (evicted) ctx.evicted?.(id);
  const weights = size.bytes ?? 0;
  const catalogueWeights =
    !!source && !source.baseURL && !source.files && source.repo === (voice ?? sourceOf(owner))?.repo;
  // A tier's export (Whisper tiny, Qwen2.5-0.5B-Instruct, …): measured under its repo's name.
  const tierRepo =
    !catalogueWeights && source && !source.baseURL && !source.files ? tierOfRepo(source.repo)?.entry.repo : undefined;
  // speech-stt-v1's other families by their own measurements: the catalogue's default folders as measured
  // (Shruti-ONNX's are 4-bit), another source by the measured ratio where its size is near.
  const shruti = part?.engine === 'shruti';
  const defaultPart = part && (shruti ? shrutiFigure(part.source) : indicFigure(part.source)) !== undefined;
  const figure =
    size.bytes === null
      ? undefined
      : part
        ? memoryFigure(
            shruti ? 'shruti' : 'indic-conformer',
            shruti ? 'moonshine' : 'indic-conformer',
            attempt.backend,
            size.dtype ?? (shruti && defaultPart ? SHRUTI_DTYPE : undefined),
            weights,
            defaultPart,
          )
        : memoryFigure(
            tierRepo ?? owner,
            layoutOf(owner) ?? voiceFamily(owner),
            attempt.backend,
            size.dtype ?? undefined,
            weights,
            catalogueWeights || !!tierRepo,
          );
  // `graphCapture` on WebGPU holds a chat model's weights twice (where its export can be captured).
  const captured = attempt.backend === 'webgpu' && layoutOf(owner) === 'chat' && !!source?.chat?.graphCapture;
  const memory = figure && captured ? withCapture(figure, weights) : figure;
  const decision = decide({
    model: planName({
      model: id,
      part: stt ? { engine: part?.engine ?? 'whisper', language: on.language ?? null } : undefined,
    }),
    local: (ctx.local(id) || voice !== undefined) && order.includes('local'),
    remote,
    remoteFirst: order.indexOf('remote') !== -1 && order.indexOf('remote') < order.indexOf('local'),
    builtin: entry?.builtin && order.includes('builtin') ? await ctx.builtin() : undefined,
    noSource,
    needsWebGpu,
    backend: attempt.backend,
    dtype: size.dtype,
    source: base,
    remaining,
    memory: memory?.bytes ?? null,
    device,
    metered: meteredPolicy(ctx.options.fit),
    byVoice: size.basis === 'none' && !entry?.builtin,
  });
  if (evicted)
    decision.reason = `evicted: the browser cleared ${formatSize(evicted)} of ${owner}'s cached files since this page saw them; planned again. ${decision.reason}`;
  return {
    model: id,
    files_of: owner,
    ...(stt ? { part: { engine: part?.engine ?? 'whisper', language: on.language ?? null } } : {}),
    decision,
    download: {
      bytes: size.bytes,
      cached_bytes: size.cached,
      remaining_bytes: remaining,
      evicted_bytes: evicted,
      exact: size.exact,
      basis: size.basis,
      from: size.from,
      seconds: downloadSeconds(remaining, device.network),
      ...(size.files ? { files: size.files } : {}),
    },
    memory: memory
      ? { bytes: memory.bytes, basis: memory.basis, from: memory.from }
      : { bytes: null, basis: 'unknown', from: 'no figure for this model, backend and dtype' },
    device: deviceView(device),
    network: {
      online: device.online,
      save_data: device.network?.saveData ?? null,
      effective_type: device.network?.effectiveType ?? null,
      downlink_mbps: device.network?.downlink ?? null,
      type: device.network?.type ?? null,
    },
    unknown: unreported(device),
    ...(tier ? { tier } : {}),
    persist: persistState(),
  };
}
