import { afterEach, describe, expect, it, vi } from 'vitest';
import { deviceFacts } from '../../../src/common/fit/device';

describe('deviceFacts', () => {
  afterEach(() => vi.unstubAllGlobals());

  const gpuWith = (f16: boolean) => ({
    requestAdapter: vi.fn(async () => ({
      features: new Set(f16 ? ['shader-f16'] : []),
      limits: { maxBufferSize: 2 ** 30, maxStorageBufferBindingSize: 2 ** 27 },
      info: { isFallbackAdapter: false },
    })),
  });

  it('asks the WebGPU adapter once per navigator.gpu, however many plans are made', async () => {
    const gpu = gpuWith(true);
    vi.stubGlobal('navigator', { gpu, deviceMemory: 4 });
    const [first, second] = await Promise.all([deviceFacts(), deviceFacts()]);
    const third = await deviceFacts();
    expect(gpu.requestAdapter).toHaveBeenCalledTimes(1);
    for (const facts of [first, second, third])
      expect(facts.gpu).toEqual({
        f16: true,
        fallback: false,
        maxBufferSize: 2 ** 30,
        maxStorageBufferBindingSize: 2 ** 27,
      });
    expect(third.memory).toBe(4 * 2 ** 30);

    const other = gpuWith(false);
    vi.stubGlobal('navigator', { gpu: other });
    expect((await deviceFacts()).gpu).toMatchObject({ f16: false });
    expect(other.requestAdapter).toHaveBeenCalledTimes(1);
  });

  it('reports no adapter as null and no WebGPU as undefined', async () => {
    vi.stubGlobal('navigator', { gpu: { requestAdapter: async () => null } });
    expect((await deviceFacts()).gpu).toBeNull();
    vi.stubGlobal('navigator', {});
    expect((await deviceFacts()).gpu).toBeUndefined();
  });

  it('with probeGpu: false asks no adapter, and reports one an earlier probe found', async () => {
    const gpu = gpuWith(true);
    vi.stubGlobal('navigator', { gpu });
    expect((await deviceFacts({ probeGpu: false })).gpu).toBeUndefined();
    expect(gpu.requestAdapter).not.toHaveBeenCalled();
    await deviceFacts();
    expect((await deviceFacts({ probeGpu: false })).gpu).toMatchObject({ f16: true });
    expect(gpu.requestAdapter).toHaveBeenCalledTimes(1);
  });
});
