import { afterEach, describe, expect, it, vi } from 'vitest';
import { wasmThreads } from '../../../src/common/backends/ort';

describe('wasmThreads', () => {
  afterEach(() => vi.unstubAllGlobals());
  const page = (isolated: boolean, cores: number) => {
    vi.stubGlobal('crossOriginIsolated', isolated);
    vi.stubGlobal('navigator', { hardwareConcurrency: cores });
  };

  it('is 1 without cross-origin isolation, whatever was asked', () => {
    page(false, 8);
    expect(wasmThreads()).toBe(1);
    expect(wasmThreads(4)).toBe(1);
  });

  it('uses half the cores, rounded up, up to 4 by default when isolated (onnxruntime-web’s default)', () => {
    page(true, 2);
    expect(wasmThreads()).toBe(1);
    page(true, 3);
    expect(wasmThreads()).toBe(2);
    page(true, 4);
    expect(wasmThreads()).toBe(2);
    page(true, 16);
    expect(wasmThreads()).toBe(4);
    page(true, 1);
    expect(wasmThreads()).toBe(1);
  });

  it('honours a positive integer and ignores anything else', () => {
    page(true, 2);
    expect(wasmThreads(3)).toBe(3);
    expect(wasmThreads(0)).toBe(1);
    expect(wasmThreads(1.5)).toBe(1);
    expect(wasmThreads(Number.NaN)).toBe(1);
  });
});
