import { describe, expect, it, vi } from 'vitest';
import { GATED_BYTES, policyVerdict, validateFit, type PolicyInput } from '../../../src/common/fit/policy';
import { FitGate, filesRead } from '../../../src/page/services/fit-gate';
import type { DeviceFacts } from '../../../src/common/fit/decide';
import type { FitOptions, ModelPlan } from '../../../src/protocol/fit';

const GB = 2 ** 30;
const desktop: DeviceFacts = {
  memory: 8 * GB,
  crossOriginIsolated: true,
  network: { saveData: false, effectiveType: '4g', downlink: 10 },
  online: true,
};
const saveData: DeviceFacts = { ...desktop, network: { ...desktop.network, saveData: true } };
const local = { run: 'local', backend: 'wasm', dtype: 'q8', source: 's/', code: 'fits', reason: 'fits' } as const;
const input = (change: Partial<PolicyInput> = {}): PolicyInput => ({
  model: 'chat-v2',
  decision: local,
  remaining: 512e6,
  memory: 1.5 * GB,
  device: desktop,
  remote: false,
  ...change,
});

describe('policyVerdict', () => {
  it('downloads on an unmetered connection with memory to spare, whatever the size', () => {
    expect(policyVerdict(input({ remaining: 5e9 }))).toEqual({ act: 'download' });
  });

  it('asks before a download over 100 MB on Save-Data, with the size and time in words', () => {
    const verdict = policyVerdict(input({ device: saveData }));
    expect(verdict).toMatchObject({ act: 'ask', why: ['metered'] });
    expect(verdict.act === 'ask' && verdict.reason).toBe(
      'chat-v2 needs 512 MB (~7 min on this connection): Save-Data is on.',
    );
  });

  it('lets a metered download at or under 100 MB start, and one already cached', () => {
    expect(policyVerdict(input({ device: saveData, remaining: GATED_BYTES }))).toEqual({ act: 'download' });
    expect(policyVerdict(input({ device: saveData, remaining: 0 }))).toEqual({ act: 'download' });
  });

  it('counts a cellular link and a downlink under minDownlinkMbps as metered; an unknown size as over the ceiling', () => {
    const cellular = { ...desktop, network: { ...desktop.network, type: 'cellular' } };
    expect(policyVerdict(input({ device: cellular, remaining: null }))).toMatchObject({
      act: 'ask',
      why: ['metered'],
      reason: expect.stringMatching(/a download of unknown size: the connection is cellular/),
    });
    expect(policyVerdict(input(), { minDownlinkMbps: 20 })).toMatchObject({
      act: 'ask',
      reason: expect.stringMatching(/reports 10 Mbit\/s, under fit\.minDownlinkMbps \(20\)/),
    });
    expect(policyVerdict(input(), { minDownlinkMbps: 5 })).toEqual({ act: 'download' });
  });

  it("metered: 'local' downloads, 'remote' uses the remote without asking (asks where there is none)", () => {
    expect(policyVerdict(input({ device: saveData }), { metered: 'local' })).toEqual({ act: 'download' });
    expect(policyVerdict(input({ device: saveData, remote: true }), { metered: 'remote' })).toMatchObject({
      act: 'remote',
    });
    expect(policyVerdict(input({ device: saveData }), { metered: 'remote' })).toMatchObject({ act: 'ask' });
  });

  it('asks on a device short of memory (over half of what it reports)', () => {
    const small = { ...desktop, memory: 2 * GB };
    expect(policyVerdict(input({ device: small, memory: 1.2 * GB }))).toMatchObject({
      act: 'ask',
      why: ['memory'],
      reason: expect.stringMatching(/over half of what this device reports/),
    });
    expect(policyVerdict(input({ device: small, memory: 0.9 * GB }))).toEqual({ act: 'download' });
  });

  it('holds every download to an explicit maxDownloadBytes, on any connection', () => {
    expect(policyVerdict(input(), { maxDownloadBytes: 100e6 })).toMatchObject({
      act: 'ask',
      why: ['ceiling'],
      reason: expect.stringMatching(/over fit\.maxDownloadBytes \(100 MB\)/),
    });
    expect(policyVerdict(input({ device: saveData }), { maxDownloadBytes: 1e9 })).toEqual({ act: 'download' });
  });

  it('never downloads a model the plan says cannot run here; leaves one with nothing to fetch to its engine', () => {
    const memory = { run: 'none', code: 'memory', reason: 'too little memory.' } as const;
    expect(policyVerdict(input({ decision: memory }))).toEqual({ act: 'refuse', reason: 'too little memory.' });
    const remote = { run: 'remote', code: 'wasm_memory', reason: 'over 4 GB.' } as const;
    expect(policyVerdict(input({ decision: remote, remote: true }), { metered: 'local' })).toMatchObject({
      act: 'refuse',
    });
    // A browser that reports nothing: the plan's conservative remote is what happens, not a local download.
    const unknown = { run: 'remote', code: 'unknown', reason: 'unknown: the remote answers.' } as const;
    const silent = { crossOriginIsolated: false, online: true };
    expect(policyVerdict(input({ decision: unknown, device: silent, remote: true }))).toMatchObject({
      act: 'remote',
      reason: 'unknown: the remote answers.',
    });
    const noSource = { run: 'none', code: 'no_source', reason: 'no weights.' } as const;
    expect(policyVerdict(input({ decision: noSource, device: saveData, remaining: null }))).toEqual({
      act: 'download',
    });
  });
});

describe('validateFit', () => {
  it('takes the documented options', () => {
    expect(() => validateFit(undefined)).not.toThrow();
    expect(() =>
      validateFit({ maxDownloadBytes: 0, metered: 'remote', minDownlinkMbps: 1.5, confirm: () => true }),
    ).not.toThrow();
  });

  it.each([
    [null, /fit must be an object, not null/],
    ['ask', /fit must be an object, not string/],
    [{ maxDownloadBytes: -1 }, /maxDownloadBytes must be a finite number of bytes ≥ 0, not -1/],
    [{ maxDownloadBytes: '100MB' }, /maxDownloadBytes must be/],
    [{ metered: 'never' }, /metered must be 'ask', 'remote' or 'local', not "never"/],
    [{ minDownlinkMbps: NaN }, /minDownlinkMbps must be/],
    [{ confirm: true }, /confirm must be a function/],
    [{ ceiling: 1 }, /unknown option 'ceiling'/],
  ])('throws a TypeError for %j', (fit, message) => {
    expect(() => validateFit(fit)).toThrow(TypeError);
    expect(() => validateFit(fit)).toThrow(message);
  });
});

/** A plan as planModel gives it, for the gate. */
const plan = (change: Partial<ModelPlan['download']> = {}, saveDataOn = true): ModelPlan => ({
  model: 'chat-v2',
  files_of: 'chat-v2',
  decision: local,
  download: {
    bytes: 512e6,
    cached_bytes: 0,
    remaining_bytes: 512e6,
    evicted_bytes: 0,
    exact: true,
    basis: 'manifest',
    from: 'm',
    seconds: 410,
    ...change,
  },
  memory: { bytes: 1e9, basis: 'estimate', from: 'e' },
  device: { memory_bytes: 8 * GB, gpu: null, cross_origin_isolated: false, wasm_threads: false, storage: null },
  network: { online: true, save_data: saveDataOn, effective_type: '4g', downlink_mbps: 10, type: null },
  unknown: [],
  persist: { asked: false, granted: null },
});

function gateWith(fit: FitOptions, remote = false, planned = plan()) {
  const planOf = vi.fn(async () => planned);
  const gate = new FitGate({
    fit,
    owner: (id) => (id === 'agent-v1' ? 'chat-v2' : id),
    remote: () => remote,
    plan: planOf,
  });
  return { gate, planOf };
}

describe('FitGate', () => {
  it('asks confirm with the plan and why; yes lets every later call through without asking again', async () => {
    const confirm = vi.fn(async (_plan: unknown) => true);
    const { gate } = gateWith({ confirm });
    await expect(Promise.all([gate.allow('chat', 'chat-v2'), gate.allow('chat', 'agent-v1')])).resolves.toBeDefined();
    await gate.allow('chat', 'chat-v2');
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(confirm.mock.calls[0]![0]).toMatchObject({
      model: 'chat-v2',
      download: { remaining_bytes: 512e6 },
      consent: { for: 'chat', why: ['metered'], remote: false, size: '512 MB', time: '~7 min' },
    });
  });

  it.each([
    ['false', () => false],
    [
      'a throw',
      () => {
        throw new Error('no');
      },
    ],
    ['a rejection', () => Promise.reject(new Error('no'))],
    ['a non-boolean', () => 'yes' as unknown as boolean],
  ])('takes %s as declined: a download_declined error, not asked again until reset', async (_, answer) => {
    const confirm = vi.fn(answer);
    const { gate } = gateWith({ confirm });
    const refused = gate.allow('chat', 'chat-v2');
    await expect(refused).rejects.toMatchObject({ kind: 'unavailable', code: 'download_declined', param: 'model' });
    await expect(refused).rejects.toThrow(
      /512 MB .*declined; it is not asked again in this page until ai\.plan\.reset\(\)/,
    );
    await expect(gate.allow('chat', 'chat-v2')).rejects.toMatchObject({ code: 'download_declined' });
    expect(confirm).toHaveBeenCalledTimes(1);
    gate.reset('chat-v2');
    await expect(gate.allow('chat', 'chat-v2')).rejects.toMatchObject({ code: 'download_declined' });
    expect(confirm).toHaveBeenCalledTimes(2);
  });

  it('with no confirm: declines (for the remote, or saying how to consent) and asks a dialog added later', async () => {
    const { gate } = gateWith({});
    await expect(gate.allow('chat', 'chat-v2')).rejects.toThrow(
      /waits for consent: pass createVaani\(\{ fit: \{ confirm \} \}\), or fit: \{ metered: 'local' \}/,
    );
    const dialog = vi.fn(async () => true);
    const remove = gate.confirmer(dialog);
    await gate.allow('chat', 'chat-v2');
    expect(dialog).toHaveBeenCalledTimes(1);
    remove();
    gate.reset();
    await expect(gate.allow('chat', 'chat-v2')).rejects.toMatchObject({ code: 'download_declined' });
  });

  it('lets a cached model and an unmetered download through without asking', async () => {
    const confirm = vi.fn(() => false);
    await gateWith({ confirm }, false, plan({ remaining_bytes: 0 })).gate.allow('chat', 'chat-v2');
    await gateWith({ confirm }, false, plan({}, false)).gate.allow('chat', 'chat-v2');
    expect(confirm).not.toHaveBeenCalled();
  });

  it("gates each part of a model's files apart: IndicConformer's 905 MB asks on its own; reset forgets both", async () => {
    const confirm = vi.fn(async (_plan: unknown) => true);
    const planOf = vi.fn(async (_id: string, part?: string) =>
      part === 'indic-conformer'
        ? {
            ...plan({ bytes: 905e6, remaining_bytes: 905e6 }),
            model: 'speech-stt-v1',
            part: { engine: 'indic-conformer' as const, language: null },
          }
        : { ...plan({ bytes: 77e6, remaining_bytes: 77e6 }), model: 'speech-stt-v1' },
    );
    const gate = new FitGate({ fit: { confirm }, owner: (id) => id, remote: () => false, plan: planOf });
    // Whisper's 77 MB is under the ceiling: no question.
    await gate.allow('transcription', 'speech-stt-v1');
    expect(confirm).not.toHaveBeenCalled();
    await gate.allow('transcription', 'speech-stt-v1', 'indic-conformer');
    await gate.allow('transcription', 'speech-stt-v1', 'indic-conformer');
    expect(planOf).toHaveBeenCalledWith('speech-stt-v1', 'indic-conformer');
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(confirm.mock.calls[0]![0]).toMatchObject({
      part: { engine: 'indic-conformer' },
      consent: { for: 'transcription', why: ['metered'], size: '905 MB' },
    });
    expect((confirm.mock.calls[0]![0] as { consent: { reason: string } }).consent.reason).toMatch(
      /^speech-stt-v1 \(IndicConformer\) needs 905 MB/,
    );
    gate.reset('speech-stt-v1');
    await gate.allow('transcription', 'speech-stt-v1', 'indic-conformer');
    expect(confirm).toHaveBeenCalledTimes(2);
  });

  it('goes ahead when the plan cannot be made', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const gate = new FitGate({
      fit: {},
      owner: (id) => id,
      remote: () => false,
      plan: () => Promise.reject(new Error('boom')),
    });
    await expect(gate.allow('chat', 'chat-v2')).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/could not plan chat-v2 .*boom/));
    warn.mockRestore();
  });
});

describe('filesRead', () => {
  it("reads a model's own files; speech reads its voice's weights, eSpeak's voices none", () => {
    expect(filesRead('chat', 'chat-v2', [])).toBe('chat-v2');
    expect(filesRead('speech', 'tts-v1', [{ voice: 'hi-IN-kokoro-alpha' }])).toBe('kokoro-82m');
    expect(filesRead('speech', 'tts-v1', [{ voice: 'hi-IN-female-1' }])).toBeUndefined();
    expect(filesRead('speech', 'tts-v1', [{ voice: 'no-such-voice' }])).toBeUndefined();
    // Speech recognition gates Whisper's and IndicConformer's files itself, once the language is known.
    expect(filesRead('transcription', 'speech-stt-v1', [])).toBeUndefined();
  });
});
