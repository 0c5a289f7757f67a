import { describe, expect, it } from 'vitest';
import {
  decide,
  downloadSeconds,
  formatSize,
  unreported,
  type DeviceFacts,
  type PlanInput,
} from '../../../src/common/fit/decide';

const GB = 2 ** 30;
const desktop: DeviceFacts = {
  memory: 8 * GB,
  gpu: { f16: true, maxBufferSize: 4 * GB, maxStorageBufferBindingSize: 2 * GB },
  crossOriginIsolated: true,
  storage: { quota: 100e9, usage: 0, persisted: false },
  network: { saveData: false, effectiveType: '4g', downlink: 10 },
  online: true,
};
const base: PlanInput = {
  model: 'chat-v2',
  local: true,
  remote: false,
  remoteFirst: false,
  backend: 'wasm',
  dtype: 'q8',
  source: 'https://huggingface.co/onnx-community/Qwen3-0.6B-ONNX/resolve/abc/',
  remaining: 600e6,
  memory: 1.7e9,
  device: desktop,
};
const low: DeviceFacts = {
  ...desktop,
  memory: 2 * GB,
  gpu: null,
  network: { saveData: true, effectiveType: '4g', downlink: 10 },
};
const silent: DeviceFacts = { crossOriginIsolated: false, online: true };

const cases: [string, Partial<PlanInput>, { run: string; code: string; backend?: string; reason: RegExp }][] = [
  [
    'fits on a desktop',
    {},
    { run: 'local', code: 'fits', backend: 'wasm', reason: /600 MB to download \(~8 min on this connection\)/ },
  ],
  [
    'cached: nothing to download',
    { remaining: 0 },
    { run: 'local', code: 'cached', reason: /cached: nothing to download/ },
  ],
  ['no engine, no remote', { local: false }, { run: 'none', code: 'no_engine', reason: /No local engine/ }],
  [
    'no engine, a remote',
    { local: false, remote: true },
    { run: 'remote', code: 'routing', reason: /Routing sends chat-v2 to the remote/ },
  ],
  [
    'no weights, a remote',
    { noSource: 'No weights are configured for image-v1.', remote: true },
    { run: 'remote', code: 'no_source', reason: /No weights.*The remote answers/ },
  ],
  [
    'no weights, no remote',
    { noSource: 'No weights.' },
    { run: 'none', code: 'no_source', reason: /No remote is configured/ },
  ],
  [
    'remote first',
    { remote: true, remoteFirst: true },
    { run: 'remote', code: 'routing', reason: /tries the remote first/ },
  ],
  ['past WASM memory', { memory: 5 * GB }, { run: 'none', code: 'wasm_memory', reason: /more than WASM's 4 GB/ }],
  [
    'WebGPU past 4 GB is fine',
    { memory: 5 * GB, backend: 'webgpu', device: { ...desktop, memory: 8 * GB } },
    { run: 'local', code: 'fits', backend: 'webgpu', reason: /WebGPU \(q8\)/ },
  ],
  [
    '2 GB device, remote',
    { device: low, remote: true },
    { run: 'remote', code: 'memory', reason: /reports 2 GB \(navigator\.deviceMemory\), too little/ },
  ],
  [
    '2 GB device, no remote',
    { device: { ...low, network: undefined } },
    { run: 'none', code: 'memory', reason: /too little to run it/ },
  ],
  [
    'a small model on 2 GB with Save-Data and a remote',
    { memory: 300e6, remaining: 135e6, device: low, remote: true },
    { run: 'remote', code: 'save_data', reason: /Save-Data is on: .*unless the visitor agrees/ },
  ],
  [
    'Save-Data and a remote, within the policy ceiling: downloads as the policy lets it',
    { memory: 300e6, remaining: 60e6, device: low, remote: true },
    { run: 'local', code: 'save_data', reason: /within the 100 MB the download policy starts without asking/ },
  ],
  [
    "Save-Data, fit.metered 'remote': the remote past the ceiling, saying so",
    { memory: 300e6, remaining: 135e6, device: low, remote: true, metered: { ceiling: 100e6, remote: true } },
    { run: 'remote', code: 'save_data', reason: /fit\.metered is 'remote'/ },
  ],
  [
    "Save-Data, fit.metered 'local': no ceiling",
    { memory: 300e6, remaining: 135e6, device: low, remote: true, metered: { remote: false } },
    { run: 'local', code: 'save_data', reason: /fit\.metered is 'local'/ },
  ],
  [
    "a speech id on Save-Data with a remote: its files are the voice's, so local (the policy holds nothing)",
    { model: 'speech-tts-v1', memory: null, remaining: null, device: low, remote: true, byVoice: true },
    { run: 'local', code: 'fits', reason: /no files of its own: each voice's are planned apart/ },
  ],
  [
    'Save-Data, no remote: local, said',
    { memory: 300e6, remaining: 135e6, device: low },
    { run: 'local', code: 'save_data', reason: /with Save-Data on/ },
  ],
  [
    'Save-Data but cached',
    { memory: 300e6, remaining: 0, device: low, remote: true },
    { run: 'local', code: 'cached', reason: /cached/ },
  ],
  [
    'quota too small',
    { device: { ...desktop, storage: { quota: 1e9, usage: 0.5e9 } } },
    { run: 'none', code: 'storage', reason: /allows this site 500 MB more/ },
  ],
  [
    'offline and not cached',
    { device: { ...desktop, online: false }, remote: true },
    { run: 'none', code: 'offline', reason: /offline/ },
  ],
  [
    'reports nothing, no remote',
    { device: silent },
    { run: 'local', code: 'unknown', backend: 'wasm', reason: /^unknown: / },
  ],
  [
    'reports nothing, a remote',
    { device: silent, remote: true },
    { run: 'remote', code: 'unknown', reason: /^unknown: .*remote answers/ },
  ],
  [
    'reports nothing, cached',
    { device: silent, remaining: 0, remote: true },
    { run: 'local', code: 'cached', reason: /cached/ },
  ],
  [
    'unknown size and memory',
    { remaining: null, memory: null, device: silent },
    { run: 'local', code: 'unknown', reason: /an unknown download/ },
  ],
  [
    'builtin available',
    { builtin: 'available', local: false },
    { run: 'local', code: 'fits', backend: 'builtin', reason: /browser's own model/ },
  ],
  [
    'builtin absent, no remote',
    { builtin: 'absent', local: false },
    { run: 'none', code: 'builtin_unavailable', reason: /absent here/ },
  ],
];

describe('decide', () => {
  it.each(cases)('%s', (_name, input, expected) => {
    const decision = decide({ ...base, ...input });
    expect(decision.run).toBe(expected.run);
    expect(decision.code).toBe(expected.code);
    expect(decision.reason).toMatch(expected.reason);
    if (expected.backend) expect(decision.run === 'local' && decision.backend).toBe(expected.backend);
    if (decision.run === 'local' && decision.backend !== 'builtin') expect(decision.source).toBe(base.source);
  });

  it('never throws on a device that reports nothing at all', () => {
    expect(() => decide({ ...base, device: silent, remaining: null, memory: null })).not.toThrow();
  });
});

describe('downloadSeconds', () => {
  it.each([
    [80e6, { downlink: 10 }, 64],
    [80e6, { effectiveType: '3g' }, 915],
    [0, undefined, 0],
    [80e6, undefined, null],
    [null, { downlink: 10 }, null],
    [80e6, { downlink: 0, effectiveType: '4g' }, 64],
  ] as const)('%s bytes on %j: %s s', (bytes, network, seconds) => {
    expect(downloadSeconds(bytes, network)).toBe(seconds);
  });
});

describe('formatSize and unreported', () => {
  it('says sizes in decimal units', () => {
    expect([formatSize(1.2e9), formatSize(77e6), formatSize(2e3), formatSize(5)]).toEqual([
      '1.2 GB',
      '77 MB',
      '2 kB',
      '5 bytes',
    ]);
  });
  it('lists what the browser does not report', () => {
    expect(unreported(silent)).toEqual(['memory', 'network', 'gpu', 'storage']);
    expect(unreported(desktop)).toEqual([]);
  });
});
