/**
 * The download policy (`createVaani({ fit })`): from a plan's decision and facts, whether a model's
 * download starts, waits for consent, goes to the remote, or never happens. Pure: the page's gate
 * (src/page/services/fit-gate.ts) plans, asks and remembers.
 */
import type { ConsentWhy, Decision, FitOptions, PlanFor } from '../../protocol/fit';
import { downloadSeconds, formatSize, formatTime, GATED_BYTES, type DeviceFacts } from './decide';

export { GATED_BYTES };
/** Past this share of the device's reported memory a device is short of memory for a model (not yet unable to run it). */
export const SHORT_SHARE = 0.5;
/** Plan codes that mean the model cannot run here: it is never downloaded. */
const CANNOT_RUN: ReadonlySet<string> = new Set(['memory', 'wasm_memory', 'storage']);
/** Plan codes where nothing can be fetched anyway (no source, no engine, offline): the engine says why. */
const NOTHING_TO_FETCH: ReadonlySet<string> = new Set(['no_source', 'no_engine', 'builtin_unavailable', 'offline']);

export interface PolicyInput {
  model: string;
  decision: Decision;
  /** Bytes still to download (null: unknown). */
  remaining: number | null;
  /** Memory the model needs (null: unknown). */
  memory: number | null;
  device: DeviceFacts;
  /** A remote is configured and may answer this model. */
  remote: boolean;
}

export type Verdict =
  | { act: 'download' }
  | { act: 'refuse'; reason: string }
  | { act: 'remote'; why: ConsentWhy[]; reason: string }
  | { act: 'ask'; why: ConsentWhy[]; reason: string };

const METERED = ['ask', 'remote', 'local'] as const;

/** Throws a TypeError naming the first invalid `fit` option. */
export function validateFit(fit: unknown): asserts fit is FitOptions | undefined {
  if (fit === undefined) return;
  const bad = (what: string) => new TypeError(`createVaani({ fit }): ${what}.`);
  if (fit === null || typeof fit !== 'object' || Array.isArray(fit))
    throw bad(`fit must be an object, not ${fit === null ? 'null' : Array.isArray(fit) ? 'an array' : typeof fit}`);
  const { maxDownloadBytes, metered, minDownlinkMbps, confirm, tier, ...rest } = fit as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length)
    throw bad(`unknown option '${unknown[0]}' (fit takes maxDownloadBytes, metered, minDownlinkMbps, confirm, tier)`);
  const nonNegative = (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0;
  if (maxDownloadBytes !== undefined && !nonNegative(maxDownloadBytes))
    throw bad(`maxDownloadBytes must be a finite number of bytes ≥ 0, not ${String(maxDownloadBytes)}`);
  if (metered !== undefined && !(METERED as readonly unknown[]).includes(metered))
    throw bad(`metered must be 'ask', 'remote' or 'local', not ${JSON.stringify(metered)}`);
  if (minDownlinkMbps !== undefined && !nonNegative(minDownlinkMbps))
    throw bad(`minDownlinkMbps must be a finite number of Mbit/s ≥ 0, not ${String(minDownlinkMbps)}`);
  if (confirm !== undefined && typeof confirm !== 'function')
    throw bad(`confirm must be a function (plan) => boolean | Promise<boolean>, not ${typeof confirm}`);
  validateTier(tier, bad);
}

/** Throws a TypeError for `ai.plan(id, options)`'s options that are not `{ language?: 'hi' | … }`. */
export function validatePlanFor(options: unknown): asserts options is PlanFor | undefined {
  if (options === undefined) return;
  const bad = (what: string) => new TypeError(`ai.plan(id, options): ${what}.`);
  if (options === null || typeof options !== 'object' || Array.isArray(options))
    throw bad(
      `options must be an object, not ${options === null ? 'null' : Array.isArray(options) ? 'an array' : typeof options}`,
    );
  const { language, voice, ...rest } = options as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length) throw bad(`unknown option '${unknown[0]}' (it takes language, voice)`);
  if (voice !== undefined && typeof voice !== 'string') throw bad(`voice must be a voice id, not ${typeof voice}`);
  if (language !== undefined && !(typeof language === 'string' && /^[a-z]{2,3}$/.test(language)))
    throw bad(`language must be an ISO-639 code such as 'hi', not ${JSON.stringify(language)}`);
}

const TIER_NAMES = ['small', 'medium', 'large', 'auto'];
const TIER_KEYS = ['chat', 'transcription', 'speech', 'embeddings', 'images'];

function validateTier(tier: unknown, bad: (what: string) => TypeError): void {
  if (tier === undefined) return;
  const names = "'small', 'medium', 'large' or 'auto'";
  if (typeof tier === 'string') {
    if (!TIER_NAMES.includes(tier))
      throw bad(`tier must be ${names}, or per product an object, not ${JSON.stringify(tier)}`);
    return;
  }
  if (tier === null || typeof tier !== 'object' || Array.isArray(tier))
    throw bad(
      `tier must be ${names}, or per product an object, not ${tier === null ? 'null' : Array.isArray(tier) ? 'an array' : typeof tier}`,
    );
  for (const [product, value] of Object.entries(tier)) {
    if (!TIER_KEYS.includes(product)) throw bad(`tier has no product '${product}' (it takes ${TIER_KEYS.join(', ')})`);
    if (value !== undefined && !TIER_NAMES.includes(value as string))
      throw bad(`tier.${product} must be ${names}, not ${JSON.stringify(value)}`);
  }
}

/** What makes a connection count as metered: Save-Data, a cellular link, or a downlink under `minDownlinkMbps`. */
function meteredBy(device: DeviceFacts, fit: FitOptions): string | undefined {
  const network = device.network;
  if (network?.saveData) return 'Save-Data is on';
  if (network?.type === 'cellular') return 'the connection is cellular';
  if (fit.minDownlinkMbps !== undefined && network?.downlink !== undefined && network.downlink < fit.minDownlinkMbps)
    return `the connection reports ${network.downlink} Mbit/s, under fit.minDownlinkMbps (${fit.minDownlinkMbps})`;
  return undefined;
}

/** What the plan's decision takes from the policy on a metered or Save-Data connection (see decide's `metered`). */
export const meteredPolicy = (fit: FitOptions = {}) => ({
  ceiling: fit.metered === 'local' ? undefined : (fit.maxDownloadBytes ?? GATED_BYTES),
  remote: fit.metered === 'remote',
});

/** Decides what the policy lets happen to a model's download. */
export function policyVerdict(input: PolicyInput, fit: FitOptions = {}): Verdict {
  const { decision, remaining, memory, device, model } = input;
  if (remaining === 0) return { act: 'download' };
  if (decision.run !== 'local' && CANNOT_RUN.has(decision.code)) return { act: 'refuse', reason: decision.reason };
  if (decision.run !== 'local' && NOTHING_TO_FETCH.has(decision.code)) return { act: 'download' };
  // A browser that reports neither memory nor connection: the plan's conservative answer, the remote, is kept.
  if (decision.run === 'remote' && decision.code === 'unknown' && input.remote)
    return { act: 'remote', why: [], reason: decision.reason };

  const metered = fit.metered === 'local' ? undefined : meteredBy(device, fit);
  const short =
    memory !== null && device.memory !== undefined && memory > device.memory * SHORT_SHARE
      ? `${model} needs ~${formatSize(memory)} of memory, over half of what this device reports`
      : undefined;
  const ceiling = fit.maxDownloadBytes ?? (metered || short ? GATED_BYTES : undefined);
  if (ceiling === undefined || (remaining !== null && remaining <= ceiling)) return { act: 'download' };

  const why: ConsentWhy[] = [
    ...(fit.maxDownloadBytes !== undefined ? (['ceiling'] as const) : []),
    ...(metered ? (['metered'] as const) : []),
    ...(short ? (['memory'] as const) : []),
  ];
  const seconds = downloadSeconds(remaining, device.network);
  const size =
    remaining === null
      ? 'a download of unknown size'
      : `${formatSize(remaining)}${seconds === null ? '' : ` (${formatTime(seconds)} on this connection)`}`;
  const because = [
    ...(fit.maxDownloadBytes !== undefined ? [`over fit.maxDownloadBytes (${formatSize(fit.maxDownloadBytes)})`] : []),
    ...(metered ? [metered] : []),
    ...(short ? [short] : []),
  ].join('; ');
  const reason = `${model} needs ${size}: ${because}.`;
  if (fit.metered === 'remote' && input.remote && why.every((w) => w === 'metered'))
    return { act: 'remote', why, reason: `${reason} fit.metered is 'remote': the remote answers.` };
  return { act: 'ask', why, reason };
}
