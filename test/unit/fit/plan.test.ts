import { describe, expect, it, vi } from 'vitest';
import { partOf, planModel, planTarget, type PlanContext } from '../../../src/page/services/plan';
import { MEASURED, MEMORY_RATIO } from '../../../src/catalogue/fit';
import type { DeviceFacts } from '../../../src/common/fit/decide';
import type { Models } from '../../../src/common/weights';
import type { ModelSource } from '../../../src/protocol/options';
import { Tiers } from '../../../src/page/services/tiers';

const measuredBytes = (model: string) => MEASURED.find((m) => m.model === model && m.backend === 'wasm')!.bytes;
const shruti = () => measuredBytes('shruti');
const indic = () => measuredBytes('indic-conformer');

const GB = 2 ** 30;
const mid: DeviceFacts = {
  memory: 4 * GB,
  gpu: null,
  crossOriginIsolated: false,
  storage: { quota: 50e9, usage: 0, persisted: false },
  network: { saveData: false, effectiveType: '4g', downlink: 10 },
  online: true,
};

function context(device: DeviceFacts, overrides: Partial<PlanContext> = {}): PlanContext {
  return {
    options: {},
    models: { status: vi.fn(async () => Promise.reject(new Error('not listed'))) } as unknown as Models,
    remote: false,
    order: () => ['local', 'remote'],
    builtin: async () => 'absent',
    local: (id) => id !== 'builtin-chat',
    device: async () => device,
    ...overrides,
  };
}

describe('planTarget', () => {
  it('resolves ids, aliases and products; unknown is undefined', () => {
    expect(planTarget('chat-v2')).toBe('chat-v2');
    expect(planTarget('whisper-1')).toBe('speech-stt-v1');
    expect(planTarget('chat')).toBe('chat-v2');
    expect(planTarget('memory')).toBe('embed-v1');
    expect(planTarget('code-v1-base')).toBeUndefined();
    expect(planTarget('nope')).toBeUndefined();
  });
});

describe('planModel (catalogue sources, no listing)', () => {
  it("graphCapture on WebGPU counts the weights' second copy and the fixed cache; not on WASM", async () => {
    const high = {
      ...mid,
      memory: 8 * GB,
      gpu: { f16: false, maxBufferSize: 4 * GB, maxStorageBufferBindingSize: 2 * GB },
    };
    const captured = { options: { models: { 'chat-v2': { chat: { graphCapture: true } } } } };
    const plain = await planModel(context(high), 'chat-v2');
    const fast = await planModel(context(high, captured), 'chat-v2');
    expect(plain.decision).toMatchObject({ backend: 'webgpu', dtype: 'q4' });
    expect(plain.memory.basis).toBe('measured');
    expect(fast.memory.basis).toBe('estimate');
    expect(fast.memory.from).toMatch(/graph capture adds the weights × 1\.82 on the GPU/);
    const weights = MEASURED.find((m) => m.model === 'chat-v2' && m.backend === 'webgpu')!.weights;
    // The plan's weights are the catalogue's download estimate for q4, not the bench's files.
    const added = fast.memory.bytes! - plain.memory.bytes!;
    expect(added).toBeGreaterThan(0.5 * weights);
    expect(added).toBe(Math.round(plain.download.bytes! * 1.82));
    const wasm = await planModel(context(mid, captured), 'chat-v2');
    expect(wasm.memory).toEqual((await planModel(context(mid), 'chat-v2')).memory);
  });

  it('code-v1 on WASM: the listed q8 size, the measured memory, local', async () => {
    const plan = await planModel(context(mid), 'code-v1');
    expect(plan.decision).toMatchObject({ run: 'local', backend: 'wasm', dtype: 'q8', code: 'fits' });
    expect(plan.download).toMatchObject({ bytes: 0.5e9, exact: false, basis: 'catalogue', seconds: 400 });
    expect(plan.memory).toMatchObject({ bytes: 756_238_366, basis: 'measured' });
    expect(plan.unknown).toEqual([]);
  });

  it('chat-v2 on WASM: q8 has no listed size (an estimate), its memory is measured', async () => {
    const plan = await planModel(context(mid), 'chat-v2');
    expect(plan.decision).toMatchObject({ run: 'local', dtype: 'q8' });
    expect(plan.download.basis).toBe('estimate');
    expect(plan.memory.basis).toBe('measured');
  });

  it("a source's `files`: exact bytes from the store's status, memory scaled from them (not the default's measurement)", async () => {
    const status = vi.fn(async () => ({
      id: 'code-v1',
      state: 'partial',
      bytes: 100,
      total: 1100,
      files: [
        { file: 'tokenizer.json', state: 'cached', bytes: 100, size: 100 },
        { file: 'onnx/model_quantized.onnx', state: 'absent', bytes: 0, size: 1000 },
      ],
    }));
    const files = [
      { name: 'tokenizer.json', size: 100 },
      { name: 'onnx/model_quantized.onnx', size: 1000 },
    ];
    const plan = await planModel(
      context(mid, {
        options: { models: { 'code-v1': { baseURL: 'https://example.test/code/', files } } },
        models: { status } as unknown as Models,
      }),
      'code-v1',
    );
    expect(status).toHaveBeenCalledWith('code-v1');
    expect(plan.download).toMatchObject({
      bytes: 1100,
      cached_bytes: 100,
      remaining_bytes: 1000,
      exact: true,
      basis: 'files',
    });
    expect(plan.decision).toMatchObject({ run: 'local', dtype: 'q8', source: 'https://example.test/code/' });
    expect(plan.memory.basis).toBe('estimate');
    expect(plan.memory.bytes).toBeLessThan(10_000);
  });

  it('agent-v1 reads chat-v2 files', async () => {
    expect((await planModel(context(mid), 'agent-v1')).files_of).toBe('chat-v2');
  });

  it('a 2 GB device with Save-Data and a remote: chat goes to the remote, saying why; 1 GB is too little memory', async () => {
    const low = { ...mid, memory: 2 * GB, network: { saveData: true, effectiveType: '4g', downlink: 10 } };
    const plan = await planModel(context(low, { remote: true }), 'chat-v2');
    expect(plan.decision).toMatchObject({ run: 'remote', code: 'save_data' });
    expect(plan.network.save_data).toBe(true);
    const tiny = await planModel(context({ ...low, memory: GB }, { remote: true }), 'chat-v2');
    expect(tiny.decision).toMatchObject({ run: 'remote', code: 'memory' });
    expect(tiny.decision.reason).toMatch(/needs ~1\.\d GB of memory; this device reports 1 GB/);
  });

  describe('image-v1 (LCM Dreamshaper v7, fp16)', () => {
    const gpu = { f16: true, maxBufferSize: 4 * GB, maxStorageBufferBindingSize: 2 * GB };

    it('WASM only: nothing is downloaded; the remote where one is configured, else none naming the options', async () => {
      const none = await planModel(context(mid), 'image-v1');
      expect(none.decision).toMatchObject({ run: 'none', code: 'needs_webgpu' });
      expect(none.decision.reason).toMatch(/fp16, which needs WebGPU with shader-f16.*no WebGPU adapter/);
      const remote = await planModel(context(mid, { remote: true }), 'image-v1');
      expect(remote.decision).toMatchObject({ run: 'remote', code: 'needs_webgpu' });
      const noF16 = await planModel(context({ ...mid, gpu: { ...gpu, f16: false } }, { remote: true }), 'image-v1');
      expect(noF16.decision).toMatchObject({ run: 'remote', code: 'needs_webgpu' });
      expect(noF16.decision.reason).toMatch(/lacks shader-f16/);
      const software = await planModel(context({ ...mid, gpu: { ...gpu, fallback: true } }), 'image-v1');
      expect(software.decision).toMatchObject({ run: 'none', code: 'needs_webgpu' });
    });

    it('WebGPU with shader-f16: local fp16, the listed size (rounded) and an estimated memory', async () => {
      const high = { ...mid, memory: 8 * GB, gpu };
      const plan = await planModel(context(high), 'image-v1');
      expect(plan.decision).toMatchObject({ run: 'local', backend: 'webgpu', dtype: 'fp16', code: 'fits' });
      expect(plan.decision).toMatchObject({ source: expect.stringContaining('aislamov/lcm-dreamshaper-v7-onnx') });
      expect(plan.download).toMatchObject({ bytes: 2150e6, exact: false, basis: 'catalogue' });
      expect(plan.download.from).toMatch(/model\.onnx_data/);
      // Not measured on WebGPU (fp16 needs shader-f16): chat's external-data ratio there.
      expect(plan.memory).toMatchObject({
        bytes: Math.round(2150e6 * MEMORY_RATIO.diffusion!.webgpu),
        basis: 'estimate',
      });
      // A 2 GB device with the adapter: short of memory.
      const small = await planModel(context({ ...high, memory: 2 * GB }), 'image-v1');
      expect(small.decision).toMatchObject({ run: 'none', code: 'memory' });
    });

    it('an fp32 export the page names runs on WASM as before', async () => {
      const plan = await planModel(
        context(mid, { options: { models: { 'image-v1': { baseURL: 'https://example.test/sd/' } } } }),
        'image-v1',
      );
      expect(plan.decision).toMatchObject({ run: 'local', backend: 'wasm' });
    });
  });

  it('a browser that reports nothing: a plan with reason unknown, never a throw', async () => {
    const plan = await planModel(context({ crossOriginIsolated: false, online: true }), 'speech-stt-v1');
    expect(plan.decision).toMatchObject({ run: 'local', code: 'unknown' });
    expect(plan.decision.reason).toMatch(/^unknown: /);
    expect(plan.device).toMatchObject({ memory_bytes: null, gpu: null, storage: null });
    expect(plan.download.seconds).toBeNull();
  });

  it("backend 'webgpu' with no adapter: none, saying so", async () => {
    const plan = await planModel(context(mid, { options: { backend: 'webgpu' } }), 'chat-v2');
    expect(plan.decision).toMatchObject({ run: 'none' });
    expect(plan.decision.reason).toMatch(/no WebGPU adapter/);
  });

  it('the browser model: local when available, the remote otherwise', async () => {
    const order = () => ['builtin' as const, 'remote' as const];
    const here = await planModel(context(mid, { order, builtin: async () => 'available' }), 'builtin-chat');
    expect(here.decision).toMatchObject({ run: 'local', backend: 'builtin' });
    const absent = await planModel(context(mid, { order, remote: true }), 'builtin-chat');
    expect(absent.decision).toMatchObject({ run: 'remote', code: 'builtin_unavailable' });
  });

  describe('speech-stt-v1 per language: the family the language is routed to', () => {
    it("a WebGPU device plans IndicConformer where its worker runs it: int8 on WASM under 'auto', fp32 on the GPU when asked", async () => {
      const gpu = { f16: true, maxBufferSize: 4 * GB, maxStorageBufferBindingSize: 2 * GB };
      const high = { ...mid, memory: 8 * GB, gpu };
      const auto = await planModel(context(high), 'speech-stt-v1', { language: 'hi' });
      expect(auto.decision).toMatchObject({ run: 'local', backend: 'wasm', dtype: 'int8', code: 'fits' });
      const int8 = MEASURED.find((m) => m.model === 'indic-conformer' && m.backend === 'wasm')!;
      expect(auto.memory).toMatchObject({ bytes: int8.bytes, basis: 'measured' });
      // Asked for WebGPU: AI4Bharat's fp32 export on the GPU, at the 12-layer copy's ratio measured there
      // (host and GPU memory): ≈ 7 GB, more than an 8 GB device can give one tab; a 16 GB one runs it.
      const webgpu = { options: { backend: 'webgpu' as const } };
      const short = await planModel(context(high, webgpu), 'speech-stt-v1', { language: 'hi' });
      expect(short.decision).toMatchObject({ run: 'none', code: 'memory' });
      const asked = await planModel(context({ ...high, memory: 16 * GB }, webgpu), 'speech-stt-v1', {
        language: 'hi',
      });
      expect(asked.decision).toMatchObject({ run: 'local', backend: 'webgpu', dtype: 'fp32' });
      expect(asked.decision).toMatchObject({ source: expect.stringContaining('ai4bharat/indic-conformer-600m') });
      expect(asked.memory.basis).toBe('estimate');
      expect(asked.memory.from).toMatch(/indic-conformer-12-layers's measured ratio for fp32 on webgpu/);
      expect(asked.memory.bytes).toBeGreaterThan(2.5 * 2.4e9);
      expect(asked.memory.bytes).toBe(short.memory.bytes);
    });

    it('Hindi plans IndicConformer (int8 on WASM, the catalogue size); no language and English plan Whisper', async () => {
      const hindi = await planModel(context(mid), 'speech-stt-v1', { language: 'hi' });
      expect(hindi.part).toEqual({ engine: 'indic-conformer', language: 'hi' });
      expect(hindi.files_of).toBe('speech-stt-v1');
      expect(hindi.download).toMatchObject({ bytes: 905e6, exact: false, basis: 'catalogue' });
      expect(hindi.download.from).toMatch(/int8 encoder 882 MB/);
      expect(hindi.decision).toMatchObject({ run: 'local', dtype: 'int8' });
      expect(hindi.decision).toMatchObject({ source: expect.stringContaining('Rstc989/Vaanilipi') });
      expect(hindi.memory.bytes).toBeGreaterThan(905e6);
      for (const on of [{}, { language: 'en' }]) {
        const whisper = await planModel(context(mid), 'speech-stt-v1', on);
        expect(whisper.part).toEqual({ engine: 'whisper', language: on.language ?? null });
        expect(whisper.download).toMatchObject({ bytes: 77e6, basis: 'catalogue' });
      }
    });

    it("a 2 GB phone: IndicConformer's memory is too much, so the remote (or none) with the figure", async () => {
      const phone = { ...mid, memory: 2 * GB };
      const plan = await planModel(context(phone, { remote: true }), 'speech-stt-v1', { language: 'ta' });
      expect(plan.decision).toMatchObject({ run: 'remote', code: 'memory' });
      expect(plan.decision.reason).toMatch(/^speech-stt-v1 \(IndicConformer\) needs ~/);
    });

    it('languages sent to Whisper (the small tier) plan Whisper; engine names the part directly', async () => {
      const options = {
        models: { 'speech-stt-v1': { repo: 'onnx-community/whisper-tiny', languages: { hi: 'whisper' as const } } },
      };
      const hindi = await planModel(context(mid, { options }), 'speech-stt-v1', { language: 'hi' });
      expect(hindi.part).toEqual({ engine: 'whisper', language: 'hi' });
      const santali = await planModel(context(mid, { options }), 'speech-stt-v1', { language: 'sat' });
      expect(santali.part?.engine).toBe('indic-conformer');
      const named = await planModel(context(mid), 'speech-stt-v1', { engine: 'indic-conformer' });
      expect(named.part).toEqual({ engine: 'indic-conformer', language: null });
    });

    it('IndicConformer turned off, or another model: the language changes nothing', async () => {
      const off = { models: { 'speech-stt-v1': { indic: false as const } } };
      expect((await planModel(context(mid, { options: off }), 'speech-stt-v1', { language: 'hi' })).part?.engine).toBe(
        'whisper',
      );
      const chat = await planModel(context(mid), 'chat-v2', { language: 'hi' });
      expect(chat.part).toBeUndefined();
    });

    it("Whisper's files named apart (`whisper: { baseURL, files }`): planned from them, not the default repo", async () => {
      const options = {
        models: {
          'speech-stt-v1': {
            whisper: { baseURL: 'https://example.test/whisper/', dtype: 'fp32', files: [{ name: 'a.onnx', size: 77 }] },
          },
        },
      };
      const plan = await planModel(context(mid, { options }), 'speech-stt-v1', { language: 'en' });
      expect(plan.part).toEqual({ engine: 'whisper', language: 'en' });
      expect(plan.download).toMatchObject({ bytes: 77, exact: true, basis: 'files' });
      expect(plan.decision).toMatchObject({ run: 'local', source: 'https://example.test/whisper/' });
    });

    it("a language's Shruti model on the small tier: its own 32 MB folder, planned and named apart", async () => {
      const options = {
        models: { 'speech-stt-v1': { repo: 'onnx-community/whisper-tiny', languages: { ta: 'shruti' as const } } },
      };
      const tamil = await planModel(context(mid, { options }), 'speech-stt-v1', { language: 'ta' });
      expect(tamil.part).toEqual({ engine: 'shruti', language: 'ta' });
      expect(tamil.download).toMatchObject({ bytes: 32e6, basis: 'catalogue', exact: false });
      expect(tamil.decision).toMatchObject({
        run: 'local',
        source: expect.stringContaining('udgamlabs/Shruti-ONNX/resolve/main/ta/sherpa-onnx/'),
      });
      expect(tamil.decision.reason).toMatch(/^speech-stt-v1 \(Shruti, ta\) runs here/);
      // The gate's name for the part plans the same.
      expect(partOf('shruti:ta')).toEqual({ engine: 'shruti', language: 'ta' });
      expect(partOf('indic-conformer')).toEqual({ engine: 'indic-conformer' });
      expect(partOf(undefined)).toEqual({});
    });

    it("a folder's IndicConformer files listed with sizes: exact", async () => {
      const files = [
        { name: 'encoder.onnx', size: 1000 },
        { name: 'ctc_decoder.onnx', size: 24 },
      ];
      const options = {
        models: { 'speech-stt-v1': { indic: { baseURL: 'https://example.test/indic/', dtype: 'int8', files } } },
      };
      const plan = await planModel(context(mid, { options }), 'speech-stt-v1', { language: 'hi' });
      expect(plan.download).toMatchObject({ bytes: 1024, exact: true, basis: 'files', remaining_bytes: 1024 });
      expect(plan.decision).toMatchObject({ run: 'local', source: 'https://example.test/indic/' });
    });
  });
});

describe('memory of the defaults on WASM (bench fit-memory)', () => {
  it.each(['chat-v2', 'agent-v1', 'code-v1', 'embed-v1', 'speech-stt-v1'])(
    "%s: the plan's memory is the bench's measurement of its files, q8",
    async (id) => {
      const plan = await planModel(context(mid), id);
      expect(plan.decision).toMatchObject({ run: 'local', backend: 'wasm', dtype: 'q8' });
      const measured = MEASURED.find((m) => m.model === plan.files_of && m.backend === 'wasm' && m.dtype === 'q8');
      expect(measured?.from).toMatch(/^bench fit-memory, 2026-11-28/);
      expect(plan.memory).toEqual({ bytes: measured!.bytes, basis: 'measured', from: measured!.from });
    },
  );

  it.each([
    ['speech-stt-v1', { engine: 'indic-conformer' as const }, 'indic-conformer', 'int8'],
    ['speech-stt-v1', { engine: 'shruti' as const, language: 'hi' }, 'shruti', 'q4'],
    ['vits-rasa-13', {}, 'vits-rasa-13', 'fp32'],
    ['kokoro-82m', {}, 'kokoro-82m', 'q8'],
    ['piper-te-padmavathi', {}, 'piper-te-padmavathi', 'fp32'],
    ['mms-tts-hin', {}, 'mms-tts-hin', 'q8'],
  ])('%s %j: the measurement of %s (%s)', async (id, on, model, dtype) => {
    const plan = await planModel(context(mid), id, on);
    expect(plan.decision).toMatchObject({ run: 'local', backend: 'wasm' });
    const measured = MEASURED.find((m) => m.model === model && m.backend === 'wasm' && m.dtype === dtype);
    expect(measured?.from).toMatch(/^bench fit-memory, 2026-11-28/);
    expect(plan.memory).toEqual({ bytes: measured!.bytes, basis: 'measured', from: measured!.from });
  });

  it.each([
    ['chat-v2', 'small', {}, 'onnx-community/Qwen2.5-0.5B-Instruct'],
    ['speech-stt-v1', 'small', { language: 'en' }, 'onnx-community/whisper-tiny'],
    ['speech-stt-v1', 'large', { language: 'en' }, 'onnx-community/whisper-small'],
  ] as const)("%s on the %s tier %j: the measurement of the tier's export, %s", async (id, tier, on, repo) => {
    // The tier's source written into this Vaani's models, as createVaani({ fit: { tier } }) does.
    const models: Record<string, ModelSource> = {};
    const options = { fit: { tier }, models };
    new Tiers(options, models, {});
    const plan = await planModel(context(mid, { options }), id, on);
    expect(plan.decision).toMatchObject({ run: 'local', backend: 'wasm', dtype: 'q8' });
    expect(plan.decision.run === 'local' && plan.decision.source).toContain(repo);
    const measured = MEASURED.find((m) => m.model === repo && m.backend === 'wasm' && m.dtype === 'q8');
    expect(measured?.from).toMatch(/^bench fit-memory, 2026-11-28/);
    expect(plan.memory).toEqual({ bytes: measured!.bytes, basis: 'measured', from: measured!.from });
    // The tier's own figure (plan.tier's options) is the same measurement.
    const options2 = new Tiers({}, {}, {}).plan(id, mid)!.options.find((o) => o.tier === tier)!;
    expect(options2.memory_bytes).toBe(
      measured!.bytes + (tier === 'small' && id === 'speech-stt-v1' ? shruti() : 0) + (tier === 'large' ? indic() : 0),
    );
  });

  it("another IndicConformer source near the default's size: the measured ratio, an estimate", async () => {
    const files = [{ name: 'encoder.onnx', size: 500e6 }];
    const options = {
      models: { 'speech-stt-v1': { indic: { baseURL: 'https://example.test/indic/', dtype: 'int8', files } } },
    };
    const plan = await planModel(context(mid, { options }), 'speech-stt-v1', { language: 'hi' });
    const measured = MEASURED.find((m) => m.model === 'indic-conformer')!;
    expect(plan.memory.basis).toBe('estimate');
    expect(plan.memory.bytes).toBe(Math.round(500e6 * (measured.bytes / measured.weights)));
  });
});
