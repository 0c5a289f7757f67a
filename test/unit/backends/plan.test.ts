import { describe, expect, it } from 'vitest';
import {
  WASM_DTYPES,
  WEBGPU_F16_DTYPES,
  WEBGPU_F32_DTYPES,
  backendAttempts,
  possibleBackends,
} from '../../../src/common/backends/plan';

describe('backendAttempts', () => {
  it('auto tries WebGPU first when an adapter exists, then falls back to WASM', () => {
    expect(backendAttempts('auto', { f16: true, fallback: false })).toEqual([
      { backend: 'webgpu', dtypes: WEBGPU_F16_DTYPES },
      { backend: 'wasm', dtypes: WASM_DTYPES },
    ]);
    expect(backendAttempts('auto', { f16: false, fallback: false })[0]).toEqual({
      backend: 'webgpu',
      dtypes: WEBGPU_F32_DTYPES,
    });
  });

  it('auto without an adapter, and wasm, use WASM only', () => {
    expect(backendAttempts('auto', undefined)).toEqual([{ backend: 'wasm', dtypes: WASM_DTYPES }]);
    expect(backendAttempts('wasm', { f16: true, fallback: false })).toEqual([{ backend: 'wasm', dtypes: WASM_DTYPES }]);
  });

  it('auto passes a software (fallback) adapter by for WASM; webgpu still runs on it', () => {
    const software = { f16: false, fallback: true };
    expect(backendAttempts('auto', software)).toEqual([{ backend: 'wasm', dtypes: WASM_DTYPES }]);
    expect(backendAttempts('webgpu', software)).toEqual([{ backend: 'webgpu', dtypes: WEBGPU_F32_DTYPES }]);
    expect(possibleBackends('auto', software)).toEqual(['wasm']);
    expect(possibleBackends('webgpu', software)).toEqual(['webgpu']);
    expect(possibleBackends('auto', { f16: true, fallback: false })).toEqual(['webgpu', 'wasm']);
    expect(possibleBackends('auto', undefined)).toEqual(['wasm']);
  });

  it('webgpu without an adapter is an error, not a silent fallback', () => {
    expect(() => backendAttempts('webgpu', undefined)).toThrow(/no WebGPU adapter/);
  });

  it('a dtype fixed by the source replaces the lists', () => {
    expect(backendAttempts('auto', { f16: true, fallback: false }, 'fp32')).toEqual([
      { backend: 'webgpu', dtypes: ['fp32'] },
      { backend: 'wasm', dtypes: ['fp32'] },
    ]);
  });

  it('lists possible backends without a browser (node has no navigator.gpu)', () => {
    expect(possibleBackends('auto')).toEqual(['wasm']);
    expect(possibleBackends('webgpu')).toEqual([]);
  });
});
