import { describe, expect, it, vi } from 'vitest';
import type { DeviceFacts } from '../../../src/common/fit/decide';
import { validateFit } from '../../../src/common/fit/policy';
import { pickTier } from '../../../src/common/fit/tiers';
import { MEASURED, memoryFigure } from '../../../src/catalogue/fit';
import { TIER_TABLE } from '../../../src/catalogue/tiers';
import { Tiers } from '../../../src/page/services/tiers';
import { planModel, type PlanContext } from '../../../src/page/services/plan';
import type { Models } from '../../../src/common/weights';
import type { Tier, TierProduct } from '../../../src/protocol/fit';
import type { ModelSource, VaaniOptions } from '../../../src/protocol/options';
import { createVaani } from '../../../src/index';

const GB = 2 ** 30;
const wifi = { saveData: false, effectiveType: '4g', downlink: 50, type: 'wifi' };
const room = { quota: 50e9, usage: 0, persisted: false };
const base = { crossOriginIsolated: false, online: true, storage: room, network: wifi } as const;

/** The bench's three profiles (issue 33 item 5) and the edges around them. */
const PROFILES: Record<string, DeviceFacts> = {
  low: { ...base, memory: 2 * GB, gpu: null, network: { ...wifi, saveData: true } },
  phone2: { ...base, memory: 2 * GB, gpu: null },
  mid: { ...base, memory: 4 * GB, gpu: null },
  high: { ...base, memory: 8 * GB, gpu: { f16: true, maxBufferSize: 2 * GB, maxStorageBufferBindingSize: GB } },
  workstation: {
    ...base,
    memory: 16 * GB,
    gpu: { f16: true, maxBufferSize: 4 * GB, maxStorageBufferBindingSize: 2 * GB },
  },
  highNoAdapter: { ...base, memory: 8 * GB, gpu: undefined },
  highSoftware: {
    ...base,
    memory: 8 * GB,
    gpu: { f16: true, fallback: true, maxBufferSize: GB, maxStorageBufferBindingSize: GB },
  },
  cellular: { ...base, memory: 8 * GB, gpu: null, network: { ...wifi, type: 'cellular' } },
  slow3g: { ...base, memory: 8 * GB, gpu: null, network: { effectiveType: '3g' } },
  fullDisk: { ...base, memory: 8 * GB, gpu: null, storage: { quota: 50e9, usage: 50e9 - 300e6 } },
  unknown: { crossOriginIsolated: false, online: true },
};

const products: TierProduct[] = ['chat', 'transcription', 'speech', 'embeddings', 'images'];

/** profile → the tier picked per product, and the code it gives. */
const TABLE: [string, Record<TierProduct, Tier>, string][] = [
  [
    'low',
    { chat: 'small', transcription: 'small', speech: 'small', embeddings: 'medium', images: 'medium' },
    'save_data',
  ],
  [
    'phone2',
    { chat: 'small', transcription: 'small', speech: 'medium', embeddings: 'medium', images: 'medium' },
    'fits',
  ],
  [
    'mid',
    { chat: 'medium', transcription: 'medium', speech: 'medium', embeddings: 'medium', images: 'medium' },
    'fits',
  ],
  // Under backend 'auto' IndicConformer (the medium and large transcription tiers' Indian languages) is the
  // int8 copy on WASM, as its worker runs it, so its WASM measurement counts, not fp32 on the GPU.
  ['high', { chat: 'large', transcription: 'large', speech: 'medium', embeddings: 'medium', images: 'medium' }, 'fits'],
  [
    'workstation',
    { chat: 'large', transcription: 'large', speech: 'medium', embeddings: 'medium', images: 'medium' },
    'fits',
  ],
  [
    'highNoAdapter',
    { chat: 'medium', transcription: 'large', speech: 'medium', embeddings: 'medium', images: 'medium' },
    'fits',
  ],
  [
    'highSoftware',
    { chat: 'medium', transcription: 'large', speech: 'medium', embeddings: 'medium', images: 'medium' },
    'fits',
  ],
  [
    'cellular',
    { chat: 'small', transcription: 'small', speech: 'small', embeddings: 'medium', images: 'medium' },
    'metered',
  ],
  [
    'slow3g',
    { chat: 'small', transcription: 'small', speech: 'small', embeddings: 'medium', images: 'medium' },
    'metered',
  ],
  [
    'fullDisk',
    { chat: 'small', transcription: 'small', speech: 'medium', embeddings: 'medium', images: 'medium' },
    'storage',
  ],
  [
    'unknown',
    { chat: 'small', transcription: 'small', speech: 'small', embeddings: 'medium', images: 'medium' },
    'unknown',
  ],
];

const fresh = (options: VaaniOptions = {}) => {
  const app = (options.models ?? {}) as Record<string, ModelSource>;
  const models: Record<string, ModelSource> = { ...app };
  return { tiers: new Tiers({ ...options, models }, models, app), models };
};

describe('tiers: device profile → tier per product', () => {
  it.each(TABLE)('%s', (profile, expected, chatCode) => {
    const { tiers } = fresh();
    const picked = Object.fromEntries(
      products.map((product) => [product, tiers.plan(TIER_TABLE[product].id, PROFILES[profile]!)!.tier]),
    );
    expect(picked).toEqual(expected);
    const chat = tiers.plan('chat-v2', PROFILES[profile]!)!;
    expect(chat.code).toBe(chatCode);
    expect(chat.by).toBe(profile === 'unknown' ? 'unknown' : 'device');
    expect(chat.reason.length).toBeGreaterThan(20);
  });

  it('says why in words: unknown, Save-Data, and the tiers passed by', () => {
    const unknown = fresh().tiers.plan('chat-v2', PROFILES.unknown!)!;
    expect(unknown.reason).toMatch(
      /^unknown: this browser does not report its memory .*small \(Qwen2\.5-0\.5B-Instruct\)/,
    );
    const low = fresh().tiers.plan('chat-v2', PROFILES.low!)!;
    expect(low.reason).toBe('Save-Data is on: the smallest download, small (Qwen2.5-0.5B-Instruct).');
    const mid = fresh().tiers.plan('chat-v2', PROFILES.mid!)!;
    expect(mid.reason).toMatch(
      /^medium \(Qwen3-0\.6B\): it needs ~[\d.]+ GB of memory on WASM, within half of the 4 GB/,
    );
    expect(mid.reason).toMatch(/large needs ~[\d.]+ GB on WASM, past WASM's 4 GB, and no WebGPU adapter is known here/);
    expect(mid.options.map((o) => [o.tier, o.license, o.backend, o.dtype])).toEqual([
      ['small', 'Apache-2.0', 'wasm', 'q8'],
      ['medium', 'Apache-2.0', 'wasm', 'q8'],
      ['large', 'Apache-2.0', 'wasm', 'q8'],
    ]);
    const high = fresh().tiers.plan('chat-v2', PROFILES.high!)!;
    expect(high.options.find((o) => o.tier === 'large')).toMatchObject({
      backend: 'webgpu',
      dtype: 'q4f16',
      download_bytes: 1.2e9,
      basis: 'catalogue',
    });
  });

  it("the tier is applied to the Vaani's own models (not the app's), and kept for the page", () => {
    const { tiers, models } = fresh();
    tiers.plan('agent-v1', PROFILES.low!);
    expect(models['chat-v2']).toMatchObject({ repo: 'onnx-community/Qwen2.5-0.5B-Instruct' });
    tiers.plan('speech-stt-v1', PROFILES.workstation!);
    expect(models['speech-stt-v1']).toMatchObject({ repo: 'onnx-community/whisper-small' });
    // Kept: a later plan on a better link does not switch the files under a running engine.
    expect(tiers.plan('chat-v2', PROFILES.high!)!.tier).toBe('small');
    const app = { 'chat-v2': { baseURL: '/models/chat/' } };
    const named = fresh({ models: app });
    const plan = named.tiers.plan('chat-v2', PROFILES.low!)!;
    expect(plan).toMatchObject({ tier: 'small', applied: false });
    expect(plan.reason).toMatch(/^createVaani\(\{ models \}\) names chat-v2's files, so they are used/);
    expect(named.models['chat-v2']).toEqual({ baseURL: '/models/chat/' });
    // Speech recognition naming Whisper's folder apart names its files too: no tier's languages over it.
    const stt = { 'speech-stt-v1': { whisper: { baseURL: '/models/whisper/' }, indic: { baseURL: '/models/indic/' } } };
    const split = fresh({ models: stt });
    expect(split.tiers.plan('speech-stt-v1', PROFILES.low!)).toMatchObject({ tier: 'small', applied: false });
    expect(split.models['speech-stt-v1']).toEqual(stt['speech-stt-v1']);
  });

  it('fit.tier forces a tier, everywhere or per product, the nearest where a product lacks it', () => {
    const all = fresh({ fit: { tier: 'large' } });
    expect(all.models['embed-v1']).toMatchObject({ repo: 'Xenova/bge-m3' });
    const chat = all.tiers.plan('chat-v2', PROFILES.low!)!;
    expect(chat).toMatchObject({ tier: 'large', by: 'app', code: 'forced' });
    expect(all.tiers.plan('image-v1', PROFILES.low!)!.reason).toMatch(
      /images has no large tier; the nearest is medium/,
    );
    const some = fresh({ fit: { tier: { transcription: 'small', chat: 'auto' } } });
    expect(some.models['speech-stt-v1']).toMatchObject({
      repo: 'onnx-community/whisper-tiny',
      // The compact per-language model where Shruti has one, Whisper tiny for the other languages Whisper knows.
      languages: { hi: 'shruti', ta: 'shruti', mni: 'shruti', ne: 'whisper', sd: 'whisper' },
    });
    // Languages neither has stay with IndicConformer.
    expect(some.models['speech-stt-v1']).not.toHaveProperty('languages.brx');
    expect(some.tiers.plan('chat-v2', PROFILES.high!)!).toMatchObject({ tier: 'large', by: 'device' });
  });

  it("speech recognition's tiers on WASM count IndicConformer's and Shruti's measured memory", () => {
    const measured = (model: string) => MEASURED.find((m) => m.model === model && m.backend === 'wasm')!.bytes;
    const whisper = (model: string, dtype: string, bytes: number) =>
      memoryFigure('speech-stt-v1', 'whisper', 'wasm', dtype, bytes, model === 'speech-stt-v1')!.bytes;
    const options = fresh().tiers.plan('speech-stt-v1', PROFILES.mid!)!.options;
    const medium = options.find((o) => o.tier === 'medium')!;
    expect(medium.memory_bytes).toBe(whisper('speech-stt-v1', 'q8', 77e6) + measured('indic-conformer'));
    const small = options.find((o) => o.tier === 'small')!;
    expect(small.memory_bytes! - measured('shruti')).toBeGreaterThan(0);
    expect(small.memory_bytes! - measured('shruti')).toBeLessThan(measured('speech-stt-v1'));
  });

  it('WebGPU memory: measured on a GPU where the default was, the family ratio beside it, WASM-only families as on WASM', () => {
    // chat-v2's q4 export on WebGPU (an adapter without shader-f16): the measurement itself.
    const q4 = memoryFigure('chat-v2', 'chat', 'webgpu', 'q4', 898_043_973)!;
    expect(q4).toMatchObject({ basis: 'measured', bytes: 2_486_383_411 });
    expect(q4.from).toMatch(/H200/);
    // Its q4f16 export (shader-f16): an estimate from the family's ratio measured on WebGPU, said so.
    const q4f16 = memoryFigure('chat-v2', 'chat', 'webgpu', 'q4f16', 0.55e9)!;
    expect(q4f16).toMatchObject({ basis: 'estimate', bytes: Math.round(0.55e9 * 2.8) });
    expect(q4f16.from).toMatch(/the ratio measured for chat on webgpu in another dtype or size/);
    // IndicConformer fp32 at its real 24 layers: twice the measured 12-layer copy, by that copy's ratio.
    const fp32 = memoryFigure('indic-conformer', 'indic-conformer', 'webgpu', 'fp32', 2.4e9)!;
    expect(fp32.basis).toBe('estimate');
    expect(fp32.from).toMatch(/indic-conformer-12-layers's measured ratio for fp32 on webgpu/);
    expect(fp32.bytes / 2.4e9).toBeCloseTo(2.8, 1);
    // Shruti and the neural voices run on WASM on every device: a WebGPU plan counts their WASM measurement.
    const wasm = MEASURED.find((m) => m.model === 'shruti' && m.backend === 'wasm')!;
    expect(memoryFigure('shruti', 'moonshine', 'webgpu', wasm.dtype, wasm.weights)).toMatchObject({
      basis: 'measured',
      bytes: wasm.bytes,
    });
    // Speech recognition's large tier on 8 GB with WebGPU: IndicConformer int8 on WASM under 'auto' (its
    // measurement); fp32 on the GPU where the page asks WebGPU, too big there, so the small tier.
    const indic = MEASURED.find((m) => m.model === 'indic-conformer' && m.backend === 'wasm')!.bytes;
    const auto = fresh().tiers.plan('speech-stt-v1', PROFILES.high!)!;
    expect(auto.tier).toBe('large');
    expect(auto.options.find((o) => o.tier === 'large')!.memory_bytes).toBeGreaterThan(indic);
    expect(fresh({ backend: 'webgpu' }).tiers.plan('speech-stt-v1', PROFILES.high!)!.tier).toBe('small');
    const kokoro = MEASURED.find((m) => m.model === 'kokoro-82m')!;
    expect(memoryFigure('kokoro-82m', 'kokoro', 'webgpu', 'q8', kokoro.weights)!.bytes).toBe(kokoro.bytes);
  });

  it('an invalid tier is a TypeError naming it', () => {
    expect(() => validateFit({ tier: 'huge' })).toThrow(TypeError);
    expect(() => validateFit({ tier: 'huge' })).toThrow(
      `tier must be 'small', 'medium', 'large' or 'auto', or per product an object, not "huge"`,
    );
    expect(() => validateFit({ tier: { chat: 'xl' } })).toThrow(
      /tier\.chat must be 'small', 'medium', 'large' or 'auto', not "xl"/,
    );
    expect(() => validateFit({ tier: { tts: 'small' } })).toThrow(/tier has no product 'tts'/);
    expect(() => validateFit({ tier: 3 })).toThrow(/not number/);
    expect(() => validateFit({ tier: { chat: 'small', speech: 'auto' } })).not.toThrow();
    expect(() => createVaani({ fit: { tier: 'tiny' as never } })).toThrow(
      `createVaani({ fit }): tier must be 'small', 'medium', 'large' or 'auto', or per product an object, not "tiny".`,
    );
  });

  it('pickTier with no tier fitting memory falls back to the smallest and says so', () => {
    const pick = pickTier({
      product: 'chat',
      device: { ...base, memory: 1 * GB },
      candidates: [
        { tier: 'small', model: 'S', backend: 'wasm', download: 1e8, memory: 0.9e9 },
        { tier: 'large', model: 'L', backend: 'wasm', download: 1e9, memory: 3e9 },
      ],
    });
    expect(pick).toMatchObject({ tier: 'small', code: 'memory' });
    expect(pick.reason).toMatch(/^No tier fits this device comfortably; the smallest, small \(S\), needs ~900 MB/);
  });
});

describe('planModel with tiers', () => {
  const context = (device: DeviceFacts, options: VaaniOptions = {}): PlanContext => {
    const app = (options.models ?? {}) as Record<string, ModelSource>;
    const models: Record<string, ModelSource> = { ...app };
    const own = { ...options, models };
    return {
      options: own,
      models: { status: vi.fn(async () => Promise.reject(new Error('not listed'))) } as unknown as Models,
      remote: false,
      order: () => ['local', 'remote'],
      builtin: async () => 'absent',
      local: () => true,
      device: async () => device,
      tiers: new Tiers(own, models, app),
      seen: new Map(),
    };
  };

  it('the low profile plans the small chat tier: its files, catalogue size and the tier in the plan', async () => {
    const plan = await planModel(context(PROFILES.low!), 'chat-v2');
    expect(plan.tier).toMatchObject({ product: 'chat', tier: 'small', code: 'save_data', applied: true });
    expect(plan.decision).toMatchObject({ run: 'local', dtype: 'q8' });
    expect((plan.decision as { source: string }).source).toContain('onnx-community/Qwen2.5-0.5B-Instruct');
    expect(plan.download).toMatchObject({ bytes: 512e6, basis: 'catalogue', evicted_bytes: 0 });
    expect(plan.download.from).toMatch(/^catalogue size/);
    // Asked once per page (module state: another file's Vaani may have asked it already).
    expect(plan.persist).toMatchObject({ asked: expect.any(Boolean) });
  });

  it('whisper on a 16 GB device with WebGPU: whisper-small, an estimate from its parameters', async () => {
    const plan = await planModel(context(PROFILES.workstation!), 'speech-stt-v1');
    expect(plan.tier).toMatchObject({ tier: 'large', model: 'Whisper small + IndicConformer' });
    expect((plan.decision as { source: string }).source).toContain('onnx-community/whisper-small');
    expect(plan.download.basis).toBe('estimate');
  });

  it('speech recognition on the low profile: the small tier, Shruti for its languages, its 32 MB counted', async () => {
    const { tiers, models } = fresh();
    const plan = tiers.plan('speech-stt-v1', PROFILES.low!)!;
    expect(plan).toMatchObject({ tier: 'small', model: 'Whisper tiny + Shruti', applied: true });
    expect(models['speech-stt-v1']).toMatchObject({ languages: { hi: 'shruti', ur: 'shruti', sat: 'shruti' } });
    const small = plan.options.find((o) => o.tier === 'small')!;
    const medium = plan.options.find((o) => o.tier === 'medium')!;
    // Whisper tiny's estimate plus one Shruti model, against Whisper base plus IndicConformer's 905 MB.
    expect(small.download_bytes).toBeGreaterThan(32e6);
    expect(small.download_bytes).toBeLessThan(100e6);
    expect(medium.download_bytes).toBeGreaterThan(900e6);
  });
});
