import * as ort from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import type { Ort, OrtSession } from '../../../../src/common/backends/ort';
import { KvDecoder, layoutOf, PREFILL_CHUNK as CHUNKS } from '../../../../src/worker/chat/decoder';
import type { LlmConfig } from '../../../../src/worker/chat/config';
import { tinyQwen2 } from '../../../fixtures/llm/spec';
import { generated } from '../../fixtures/generated';

/** On WASM (layoutOf's default backend, as onnxruntime-node runs here). */
const PREFILL_CHUNK = CHUNKS.wasm;

const options = { ...tinyQwen2, dtypes: ['fp32' as const], inlineWeightBytes: 2 ** 30 };

async function decoder(): Promise<KvDecoder> {
  const sink = await generated(options);
  const session = (await ort.InferenceSession.create(sink.files.get('onnx/model.onnx')!)) as unknown as OrtSession;
  return new KvDecoder(ort as unknown as Ort, session, layoutOf(session, {} as LlmConfig));
}

describe('chunked prefill', () => {
  it('sizes its runs by backend: the WASM chunk by default, the WebGPU chunk on WebGPU', async () => {
    const sink = await generated(options);
    const session = (await ort.InferenceSession.create(sink.files.get('onnx/model.onnx')!)) as unknown as OrtSession;
    expect(layoutOf(session, {} as LlmConfig).prefillChunk).toBe(CHUNKS.wasm);
    const layout = layoutOf(session, {} as LlmConfig, undefined, 'webgpu');
    expect(layout.prefillChunk).toBe(CHUNKS.webgpu);
    expect(CHUNKS.wasm).toBeLessThan(CHUNKS.webgpu);
    const sizes: number[] = [];
    await new KvDecoder(ort as unknown as Ort, session, layout).prefill(
      Array.from({ length: CHUNKS.webgpu + 5 }, (_, i) => (i * 7) % 1000),
      undefined,
      (units, run) => {
        sizes.push(units);
        return run();
      },
    );
    expect(sizes).toEqual([CHUNKS.webgpu, 5]);
  });

  const prompt = Array.from({ length: PREFILL_CHUNK * 2 + 37 }, (_, i) => (i * 131) % 1000);

  it('gives the logits of one whole-prompt run, in chunks of PREFILL_CHUNK tokens', async () => {
    const whole = await decoder();
    const expected = await whole.step(prompt);
    const chunked = await decoder();
    const sizes: number[] = [];
    const logits = await chunked.prefill(prompt, new AbortController().signal, (units, run) => {
      sizes.push(units);
      return run();
    });
    expect(sizes).toEqual([PREFILL_CHUNK, PREFILL_CHUNK, 37]);
    expect(chunked.length).toBe(prompt.length);
    const worst = logits!.reduce((max, value, i) => Math.max(max, Math.abs(value - expected[i]!)), 0);
    expect(worst).toBeLessThan(1e-3);
    // The next step continues from the chunked cache as from the whole one.
    const [a, b] = [await whole.step([7]), await chunked.step([7])];
    expect(a.reduce((max, value, i) => Math.max(max, Math.abs(value - b[i]!)), 0)).toBeLessThan(1e-3);
  });

  it('a run that fails forgets the cache: the next prompt starts from nothing, with the same logits', async () => {
    const kv = await decoder();
    const expected = await (await decoder()).step([5, 6, 7]);
    await kv.step([1, 2, 3]);
    const session = (kv as unknown as { session: OrtSession }).session;
    const run = session.run.bind(session);
    session.run = () => Promise.reject(new Error('the device was lost'));
    await expect(kv.step([4])).rejects.toThrow('the device was lost');
    expect(kv.length).toBe(0);
    session.run = run;
    expect(kv.reuse([5, 6, 7])).toBe(0);
    const logits = await kv.step([5, 6, 7]);
    expect(logits.reduce((max, value, i) => Math.max(max, Math.abs(value - expected[i]!)), 0)).toBeLessThan(1e-5);
  });

  it('stops between chunks once its signal is aborted (a cancel) and returns nothing', async () => {
    const chunked = await decoder();
    const controller = new AbortController();
    let runs = 0;
    const logits = await chunked.prefill(prompt, controller.signal, (_, run) => {
      if (++runs === 2) controller.abort();
      return run();
    });
    expect(logits).toBeUndefined();
    expect(runs).toBe(2);
    expect(chunked.length).toBe(PREFILL_CHUNK * 2);
  });
});
