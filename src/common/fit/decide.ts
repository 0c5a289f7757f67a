/**
 * The planner's decision: a pure function of what is known about the model, the device and the
 * network (no browser API is read here), so that a download policy can reuse it.
 */
import type { Decision, DeclineCode } from '../../protocol/fit';

export type { Decision, DeclineCode };

export interface GpuFacts {
  f16: boolean;
  /** A software adapter (`isFallbackAdapter`): 'auto' passes it by for WASM. */
  fallback?: boolean;
  maxBufferSize: number;
  maxStorageBufferBindingSize: number;
}

/** What the browser reports; `undefined` where it says nothing. */
export interface DeviceFacts {
  /** navigator.deviceMemory in bytes. */
  memory?: number;
  /** The WebGPU adapter; null when the API is there but gives no adapter; undefined without the API. */
  gpu?: GpuFacts | null;
  crossOriginIsolated: boolean;
  storage?: { quota?: number; usage?: number; persisted?: boolean };
  network?: { saveData?: boolean; effectiveType?: string; downlink?: number; type?: string };
  online: boolean;
}

export interface PlanInput {
  model: string;
  /** A local engine answers the id and routing lets it. */
  local: boolean;
  /** A remote is configured and routing lets it answer. */
  remote: boolean;
  /** Routing tries the remote before the local engine. */
  remoteFirst: boolean;
  /** Set for the browser's own model: its Prompt API availability. */
  builtin?: string;
  /** Set when no weights are known for the model: why, in words. */
  noSource?: string;
  /** Set when the weights cannot run on this browser's backends (fp16 without WebGPU shader-f16): why. */
  needsWebGpu?: string;
  backend: 'webgpu' | 'wasm';
  dtype: string | null;
  source: string;
  /** Bytes still to download (null: unknown). */
  remaining: number | null;
  /** Memory the model needs on `backend` (null: unknown). */
  memory: number | null;
  device: DeviceFacts;
  /**
   * The download policy on a metered or Save-Data connection (`createVaani({ fit })`): the bytes it
   * starts without asking (undefined: no ceiling, `metered: 'local'`) and whether past them the remote
   * answers without asking (`metered: 'remote'`). Default: {@link GATED_BYTES}, asked.
   */
  metered?: { ceiling?: number; remote: boolean };
  /** The model's files are the voice's (speech ids): it has none of its own, and the download policy holds none. */
  byVoice?: boolean;
}

/** The ceiling where a download is gated by default (metered, Save-Data, slow, short of memory). */
export const GATED_BYTES = 100e6;

/** WASM's 32-bit address space: a model that needs more cannot run on WASM at all. */
export const WASM_MEMORY = 4 * 2 ** 30;
/** Past this share of the device's memory a model cannot run in one tab beside the browser and the page. */
export const MEMORY_SHARE = 0.75;
/** Mbit/s per Network Information effectiveType, where `downlink` is absent. */
const EFFECTIVE_MBPS: Readonly<Record<string, number>> = { 'slow-2g': 0.05, '2g': 0.25, '3g': 0.7, '4g': 10 };

/** Whole seconds to download `bytes` on the reported connection; null when it reports nothing. */
export function downloadSeconds(bytes: number | null, network: DeviceFacts['network']): number | null {
  if (bytes === null) return null;
  if (bytes === 0) return 0;
  const mbps = network?.downlink || (network?.effectiveType ? EFFECTIVE_MBPS[network.effectiveType] : undefined);
  return mbps ? Math.ceil((bytes * 8) / (mbps * 1e6)) : null;
}

/** Bytes in words (decimal units, as download sizes are usually given). */
export function formatSize(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${Math.round(bytes / 1e6)} MB`;
  if (bytes >= 1e3) return `${Math.round(bytes / 1e3)} kB`;
  return `${bytes} bytes`;
}

/** navigator.deviceMemory is in GiB, rounded to a power of two: said as the browser gives it. */
const deviceGb = (bytes: number) => `${+(bytes / 2 ** 30).toFixed(2)} GB`;

/** Seconds in words: ~40 s, ~7 min, ~1.5 h. */
export const formatTime = (seconds: number) =>
  seconds < 90
    ? `~${seconds} s`
    : seconds < 5400
      ? `~${Math.round(seconds / 60)} min`
      : `~${(seconds / 3600).toFixed(1)} h`;

/** What the device does not report (the conservative case when both memory and network are missing). */
export function unreported(device: DeviceFacts): string[] {
  return [
    ...(device.memory === undefined ? ['memory'] : []),
    ...(device.network === undefined ? ['network'] : []),
    ...(device.gpu === undefined ? ['gpu'] : []),
    ...(device.storage?.quota === undefined ? ['storage'] : []),
  ];
}

/** Decides where a model runs here: local (with the backend, dtype and source), the remote, or nowhere. */
export function decide(input: PlanInput): Decision {
  const { model, device, remaining, memory } = input;
  const elsewhere = (code: DeclineCode, why: string): Decision =>
    input.remote
      ? { run: 'remote', code, reason: `${why} The remote answers ${model}.` }
      : { run: 'none', code, reason: `${why} No remote is configured (createVaani({ remote })).` };

  if (input.builtin !== undefined) {
    if (input.builtin === 'available')
      return {
        run: 'local',
        backend: 'builtin',
        dtype: null,
        source: "the browser's own model",
        code: 'fits',
        reason: `${model} is the browser's own model: nothing to download.`,
      };
    return elsewhere(
      'builtin_unavailable',
      `The browser's own model is ${input.builtin === 'absent' ? 'absent here' : `'${input.builtin}'`}.`,
    );
  }
  if (!input.local)
    return input.remote
      ? { run: 'remote', code: 'routing', reason: `Routing sends ${model} to the remote.` }
      : {
          run: 'none',
          code: 'no_engine',
          reason: `No local engine may answer ${model} here and no remote is configured.`,
        };
  if (input.noSource) return elsewhere('no_source', input.noSource);
  if (input.remoteFirst && input.remote)
    return { run: 'remote', code: 'routing', reason: `Routing tries the remote first for ${model}.` };

  if (input.needsWebGpu) return elsewhere('needs_webgpu', `${model} cannot run here: ${input.needsWebGpu}`);

  const need = memory === null ? '' : `needs ~${formatSize(memory)} of memory`;
  if (input.backend === 'wasm' && memory !== null && memory > WASM_MEMORY)
    return elsewhere('wasm_memory', `${model} ${need}, more than WASM's 4 GB, and this browser has no WebGPU adapter.`);
  if (memory !== null && device.memory !== undefined && memory > device.memory * MEMORY_SHARE)
    return elsewhere(
      'memory',
      `${model} ${need}; this device reports ${deviceGb(device.memory)} (navigator.deviceMemory), too little to run it.`,
    );
  const download = remaining ?? 0;
  const storage = device.storage;
  if (download > 0 && storage?.quota !== undefined && download > storage.quota - (storage.usage ?? 0))
    return elsewhere(
      'storage',
      `${model} needs ${formatSize(download)} of storage; the browser allows this site ${formatSize(Math.max(0, storage.quota - (storage.usage ?? 0)))} more.`,
    );
  if (download > 0 && !device.online)
    return { run: 'none', code: 'offline', reason: `This browser is offline and ${model} is not cached.` };

  const seconds = downloadSeconds(remaining, device.network);
  const size =
    remaining === null
      ? 'an unknown download'
      : remaining === 0
        ? 'cached: nothing to download'
        : `${formatSize(remaining)} to download${seconds === null ? '' : ` (${formatTime(seconds)} on this connection)`}`;
  const local = (code: 'cached' | 'fits' | 'unknown' | 'save_data', reason: string): Decision => ({
    run: 'local',
    backend: input.backend,
    dtype: input.dtype,
    source: input.source,
    code,
    reason,
  });
  const where = `${model} runs here on ${input.backend === 'webgpu' ? 'WebGPU' : 'WASM'}${input.dtype ? ` (${input.dtype})` : ''}`;
  if (download === 0 && remaining !== null) return local('cached', `${where}: ${size}${need ? `; ${need}` : ''}.`);
  if (input.byVoice)
    return local(
      'fits',
      `${model} has no files of its own: each voice's are planned apart (plan it with { voice }); eSpeak-NG's voices read the plug-in's files from the site.`,
    );
  if (device.network?.saveData) {
    // As the download policy acts: within its ceiling the download starts; past it, consent or the remote.
    const { ceiling, remote } = input.metered ?? { ceiling: GATED_BYTES, remote: false };
    const over = ceiling !== undefined && (remaining === null || remaining > ceiling);
    if (over && input.remote)
      return {
        run: 'remote',
        code: 'save_data',
        reason: remote
          ? `Save-Data is on and fit.metered is 'remote': the remote answers ${model} instead of ${size}.`
          : `Save-Data is on: the remote answers ${model} instead of ${size}, unless the visitor agrees to the download (fit.confirm or a widget's dialog).`,
      };
    return local(
      'save_data',
      ceiling === undefined
        ? `${where}: ${size} with Save-Data on (fit.metered is 'local').`
        : over
          ? `${where}: ${size} with Save-Data on, once the visitor agrees (no remote is configured).`
          : `${where}: ${size} with Save-Data on, within the ${formatSize(ceiling)} the download policy starts without asking.`,
    );
  }
  if (device.memory === undefined && device.network === undefined)
    return input.remote
      ? {
          run: 'remote',
          code: 'unknown',
          reason: `unknown: this browser reports neither its memory nor its connection, so the remote answers ${model} rather than ${size}.`,
        }
      : local('unknown', `unknown: this browser reports neither its memory nor its connection; ${where}: ${size}.`);
  return local(
    'fits',
    `${where}: ${size}${need ? `; ${need}${device.memory ? ` of the ${deviceGb(device.memory)} reported` : ''}` : ''}.`,
  );
}
