/**
 * The tier each tiered product runs at in this page (`plan.tier`): the app's (`fit.tier`), else
 * picked by device on the product's first plan and kept for the page, and applied by writing the
 * tier's source into this Vaani's own copy of `models` before any engine of it starts.
 */
import { BYTES_PER_PARAMETER, memoryFigure } from '../../catalogue/fit';
import { filesOwner } from '../../catalogue/sources';
import { sourceOf } from '../../catalogue/families';
import {
  TIER_PRODUCTS,
  TIER_TABLE,
  tierDownload,
  tierEntry,
  tierProductOf,
  type TierEntry,
} from '../../catalogue/tiers';
import { backendAttempts } from '../../common/backends/plan';
import { WASM_MEMORY, formatSize, type DeviceFacts } from '../../common/fit/decide';
import { pickTier, type TierCandidate, type TierPick } from '../../common/fit/tiers';
import type { Tier, TierOption, TierPlan, TierProduct } from '../../protocol/fit';
import type { ModelSource, SpeechRecognitionSource, VaaniOptions } from '../../protocol/options';

const hasLocation = (source: ModelSource | undefined) => Boolean(source?.repo || source?.baseURL || source?.files);

/** The tier the app forces for a product (`fit.tier`), undefined for 'auto' or none. */
export function forcedTier(options: Pick<VaaniOptions, 'fit'>, product: TierProduct): Tier | undefined {
  const tier = options.fit?.tier;
  const named = typeof tier === 'object' ? tier[product] : tier;
  return named === 'auto' ? undefined : named;
}

interface Sized {
  candidate: TierCandidate;
  dtype: string | null;
  basis: TierOption['basis'];
}

/** A tier sized for this device: the backend it would use, its dtype, download and memory. */
function sizeTier(entry: TierEntry, product: TierProduct, device: DeviceFacts, options: VaaniOptions): Sized {
  const gpu = device.gpu ? { f16: device.gpu.f16, fallback: device.gpu.fallback ?? false } : undefined;
  const fixed = (entry.source ?? sourceOf(TIER_TABLE[product].id))?.dtype;
  let backend: 'webgpu' | 'wasm' = 'wasm';
  let dtype: string | null = null;
  let blocked: string | undefined;
  try {
    const [first] = backendAttempts(options.backend ?? 'auto', gpu, fixed);
    backend = first!.backend;
    dtype = first!.dtypes[0] ?? null;
  } catch (error) {
    blocked = (error as Error).message;
  }
  if (entry.needsF16 && !(backend === 'webgpu' && gpu?.f16))
    blocked ??= 'runs only on WebGPU with shader-f16, which is not known here';
  if (entry.family === 'voice') dtype = null;
  const size = tierDownload(entry, dtype, BYTES_PER_PARAMETER);
  const extraBackend = entry.extra?.auto && (options.backend ?? 'auto') === 'auto' ? entry.extra.auto : backend;
  const extraBytes = entry.extra?.bytes[extraBackend] ?? 0;
  const download = size.bytes === null ? null : size.bytes + extraBytes;
  const family = entry.family === 'voice' ? undefined : entry.family;
  const own =
    size.bytes === null
      ? undefined
      : memoryFigure(
          // A tier's own export is measured under its repo's name (src/catalogue/fit.ts MEASURED).
          entry.source?.repo && entry.repo ? entry.repo : TIER_TABLE[product].id,
          family,
          backend,
          dtype ?? undefined,
          size.bytes,
          entry.source === undefined || Boolean(entry.source?.repo && entry.repo),
        );
  const extra =
    entry.extra &&
    memoryFigure(
      entry.extra.memory.model,
      entry.extra.memory.family,
      extraBackend,
      entry.extra.memory.dtype[extraBackend],
      extraBytes,
      true,
    );
  const memory = own ? own.bytes + (extra?.bytes ?? 0) : null;
  if (backend === 'wasm' && memory !== null && memory > WASM_MEMORY)
    blocked ??= `needs ~${formatSize(memory)} on WASM, past WASM's 4 GB, and no WebGPU adapter is known here`;
  return {
    candidate: { tier: entry.tier, model: entry.model, backend, download, memory, ...(blocked ? { blocked } : {}) },
    dtype,
    basis: size.basis,
  };
}

/** The tiers of one Vaani: picked once per product and page, written into `models` (this Vaani's copy). */
export class Tiers {
  private readonly picks = new Map<TierProduct, TierPick>();

  /**
   * `models`: the Vaani's own copy of `options.models`, which its engines read; `app`: what the app
   * passed (a tier never replaces files the app names).
   */
  constructor(
    private readonly options: VaaniOptions,
    private readonly models: Record<string, ModelSource>,
    private readonly app: Readonly<Record<string, ModelSource>>,
  ) {
    // A forced tier needs no device facts: applied now, before any engine starts.
    for (const product of TIER_PRODUCTS) {
      const forced = forcedTier(options, product);
      if (forced) this.apply(product, tierEntry(product, forced));
    }
  }

  /** The tiered product whose files `id` reads, if any. */
  productOf(id: string): TierProduct | undefined {
    return tierProductOf(filesOwner(id, this.app));
  }

  /** Whether the app's `models` names the product's files, speech recognition's Whisper files apart included (then no tier applies). */
  private appNames(product: TierProduct): boolean {
    const own = this.app[TIER_TABLE[product].id] as SpeechRecognitionSource | undefined;
    return hasLocation(own) || hasLocation(own?.whisper);
  }

  private apply(product: TierProduct, entry: TierEntry): void {
    const id = TIER_TABLE[product].id;
    if (this.appNames(product) || entry.source === null) return;
    if (entry.source === undefined) {
      if (this.app[id]) this.models[id] = this.app[id];
      else delete this.models[id];
    } else this.models[id] = { ...entry.source, ...this.app[id] };
  }

  /** Settles every product's tier on this device (the models list then shows the engines they chose). */
  settle(device: DeviceFacts): void {
    for (const product of TIER_PRODUCTS) this.plan(TIER_TABLE[product].id, device);
  }

  /** The product's tier for `id` on this device: picked (and applied) on its first plan, kept after. */
  plan(id: string, device: DeviceFacts): TierPlan | undefined {
    const product = this.productOf(id);
    if (!product) return undefined;
    const entries = TIER_TABLE[product].tiers;
    const sized = entries.map((entry) => sizeTier(entry, product, device, this.options));
    const candidates = sized.map((s) => s.candidate);
    let pick = this.picks.get(product);
    if (!pick) {
      pick = pickTier({
        product,
        candidates,
        device,
        forced: forcedTier(this.options, product),
        cap: product === 'embeddings' ? 'medium' : undefined,
        minDownlinkMbps: this.options.fit?.minDownlinkMbps,
      });
      this.picks.set(product, pick);
      this.apply(
        product,
        entries.find((entry) => entry.tier === pick!.tier)!,
      );
    }
    const chosen = entries.find((entry) => entry.tier === pick.tier)!;
    const applied = !this.appNames(product);
    const options: TierOption[] = entries.map((entry, i) => ({
      tier: entry.tier,
      model: entry.model,
      repo: entry.repo,
      license: entry.license,
      commercial: entry.commercial,
      ...(entry.languages ? { languages: entry.languages } : {}),
      backend: sized[i]!.candidate.backend,
      dtype: sized[i]!.dtype,
      download_bytes: sized[i]!.candidate.download,
      memory_bytes: sized[i]!.candidate.memory,
      basis: sized[i]!.basis,
      ...(pick.passed[entry.tier] ? { passed: pick.passed[entry.tier] } : {}),
    }));
    return {
      product,
      tier: pick.tier,
      by: pick.by,
      code: pick.code,
      reason: applied
        ? pick.reason
        : `createVaani({ models }) names ${TIER_TABLE[product].id}'s files, so they are used; the ${pick.tier} tier would be ${chosen.model}. ${pick.reason}`,
      applied,
      model: chosen.model,
      options,
    };
  }
}
