/**
 * Which tier of a product (small / medium / large, src/catalogue/tiers.ts) runs on this device: a
 * pure function of the tiers' sizes on the backend each would use and what the browser reports.
 */
import type { Tier, TierPlan, TierProduct } from '../../protocol/fit';
import { formatSize, type DeviceFacts } from './decide';
import { SHORT_SHARE } from './policy';

const ORDER: readonly Tier[] = ['small', 'medium', 'large'];

export interface TierCandidate {
  tier: Tier;
  model: string;
  backend: 'webgpu' | 'wasm';
  /** Bytes still to download (null: unknown). */
  download: number | null;
  /** Memory it needs on `backend` (null: unknown). */
  memory: number | null;
  /** Why it cannot run here at all (an fp16-only export without shader-f16, past WASM's 4 GB). */
  blocked?: string;
}

export interface TierInput {
  product: TierProduct;
  /** The tiers the product has, any order. */
  candidates: readonly TierCandidate[];
  device: DeviceFacts;
  /** createVaani({ fit: { tier } }) for this product. */
  forced?: Tier;
  /** The largest tier the device may pick (embeddings: medium, so stored vectors keep one model). */
  cap?: Tier;
  minDownlinkMbps?: number;
}

export type TierPick = Pick<TierPlan, 'tier' | 'by' | 'code' | 'reason'> & {
  /** Why each tier above the pick was passed by, in words. */
  passed: Partial<Record<Tier, string>>;
};

const METERED_TYPES = new Set(['slow-2g', '2g', '3g']);
const rank = (tier: Tier) => ORDER.indexOf(tier);
const gb = (bytes: number) => `${+(bytes / 2 ** 30).toFixed(2)} GB`;
const on = (backend: string) => (backend === 'webgpu' ? 'WebGPU' : 'WASM');

/** Picks the tier: the app's, else the smallest where the browser reports too little or the link is costly, else the largest that fits. */
export function pickTier(input: TierInput): TierPick {
  const { device, product } = input;
  const tiers = [...input.candidates].sort((a, b) => rank(a.tier) - rank(b.tier));
  if (!tiers.length) throw new Error(`No tiers for ${product}.`);
  const smallest = tiers[0]!;
  const named = (c: TierCandidate) => `${c.tier} (${c.model})`;
  const at = (tier: Tier, fields: Omit<TierPick, 'tier' | 'passed'>, passed: TierPick['passed'] = {}): TierPick => ({
    tier,
    passed,
    ...fields,
  });

  if (input.forced) {
    const want = rank(input.forced);
    const nearest = [...tiers].sort(
      (a, b) => Math.abs(rank(a.tier) - want) - Math.abs(rank(b.tier) - want) || rank(a.tier) - rank(b.tier),
    )[0]!;
    const instead = nearest.tier === input.forced ? '' : ` ${product} has no ${input.forced} tier; the nearest is`;
    return at(nearest.tier, {
      by: 'app',
      code: 'forced',
      reason: `The app asks for the ${input.forced} tier (createVaani({ fit: { tier } })):${instead} ${named(nearest)}.`,
    });
  }
  if (tiers.length === 1)
    return at(smallest.tier, {
      by: 'device',
      code: 'only',
      reason: `${product} has one tier: ${named(smallest)}.`,
    });
  if (device.memory === undefined)
    return at(smallest.tier, {
      by: 'unknown',
      code: 'unknown',
      reason: `unknown: this browser does not report its memory (navigator.deviceMemory), so the smallest tier: ${named(smallest)}.`,
    });
  const network = device.network;
  if (network?.saveData)
    return at(smallest.tier, {
      by: 'device',
      code: 'save_data',
      reason: `Save-Data is on: the smallest download, ${named(smallest)}.`,
    });
  const metered =
    network?.type === 'cellular'
      ? 'the connection is cellular'
      : network?.effectiveType && METERED_TYPES.has(network.effectiveType)
        ? `the connection is ${network.effectiveType}`
        : input.minDownlinkMbps !== undefined &&
            network?.downlink !== undefined &&
            network.downlink < input.minDownlinkMbps
          ? `the connection reports ${network.downlink} Mbit/s, under fit.minDownlinkMbps`
          : undefined;
  if (metered)
    return at(smallest.tier, {
      by: 'device',
      code: 'metered',
      reason: `${metered[0]!.toUpperCase()}${metered.slice(1)}: the smallest download, ${named(smallest)}.`,
    });

  const passed: TierPick['passed'] = {};
  const room = device.memory * SHORT_SHARE;
  const storage = device.storage?.quota === undefined ? undefined : device.storage.quota - (device.storage.usage ?? 0);
  const cap = input.cap === undefined ? ORDER.length : rank(input.cap);
  let code: TierPick['code'] = 'memory';
  for (const candidate of [...tiers].reverse()) {
    const why =
      rank(candidate.tier) > cap
        ? `${product} is not switched to ${candidate.tier} by device`
        : candidate.blocked
          ? candidate.blocked
          : candidate.memory !== null && candidate.memory > room
            ? `needs ~${formatSize(candidate.memory)} of memory on ${on(candidate.backend)}, over half of the ${gb(device.memory)} this device reports`
            : candidate.download !== null && storage !== undefined && candidate.download > storage
              ? `needs ${formatSize(candidate.download)} of storage; the browser allows this site ${formatSize(Math.max(0, storage))} more`
              : undefined;
    if (!why) {
      const need =
        candidate.memory === null
          ? 'its memory is not known'
          : `it needs ~${formatSize(candidate.memory)} of memory on ${on(candidate.backend)}, within half of the ${gb(device.memory)} this device reports`;
      const over = Object.entries(passed)
        .filter(([tier]) => rank(tier as Tier) <= cap)
        .map(([tier, text]) => `${tier} ${text}`);
      return at(
        candidate.tier,
        {
          by: 'device',
          code: 'fits',
          reason: `${named(candidate)}: ${need}${over.length ? `; ${over.join('; ')}` : ''}.`,
        },
        passed,
      );
    }
    passed[candidate.tier] = why;
    if (candidate === smallest && why.includes('storage')) code = 'storage';
  }
  return at(
    smallest.tier,
    {
      by: 'device',
      code,
      reason: `No tier fits this device comfortably; the smallest, ${named(smallest)}, ${passed[smallest.tier]}.`,
    },
    passed,
  );
}
