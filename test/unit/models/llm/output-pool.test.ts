import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as ortNode from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import type { Ort, OrtSession } from '../../../../src/common/backends/ort';
import type { LlmConfig } from '../../../../src/worker/chat/config';
import { KvDecoder, layoutOf } from '../../../../src/worker/chat/decoder';
import { installOutputPool } from '../../../../src/worker/chat/output-pool';
import { tinyQwen2 } from '../../../fixtures/llm/spec';
import { generated } from '../../fixtures/generated';

const options = { ...tinyQwen2, dtypes: ['fp32' as const], inlineWeightBytes: 2 ** 30 };
const worst = (a: Float32Array, b: Float32Array) =>
  a.reduce((max, value, i) => Math.max(max, Math.abs(value - b[i]!)), 0);

describe('output pool', () => {
  it('reuses a recycled buffer, zero-filled, for a large array made by length; leaves others alone', () => {
    const scope = { Float32Array } as { Float32Array: Float32ArrayConstructor };
    const pool = installOutputPool(1024, 2, scope);
    try {
      const Pooled = scope.Float32Array;
      const a = new Pooled(512).fill(7);
      pool.recycle(a);
      pool.recycle(a); // twice: kept once
      expect(pool.size).toBe(1);
      const b = new Pooled(500);
      expect(b.buffer).toBe(a.buffer);
      expect(b.length).toBe(500);
      expect(b.every((value) => value === 0)).toBe(true);
      expect(b).toBeInstanceOf(Float32Array);
      expect(pool.reused).toBe(1);
      // Nothing left to reuse, a smaller array, a view: their own buffers.
      expect(new Pooled(600).buffer).not.toBe(a.buffer);
      pool.recycle(new Pooled(600));
      expect(new Pooled(16).buffer.byteLength).toBe(64);
      expect(new Pooled(a.buffer, 0, 4).buffer).toBe(a.buffer);
      // Another's buffer is not taken (onnxruntime-node's outputs live in memory it frees).
      pool.recycle(new Float32Array(4096));
      expect(pool.size).toBe(1);
      expect(pool.reused).toBe(1);
      // A buffer too small for the array asked is not used.
      expect(new Pooled(100_000).buffer.byteLength).toBeGreaterThan(400_000);
      expect(pool.reused).toBe(1);
      // A buffer with more room than a new one would get is not spent on a much smaller array.
      const large = new Pooled(100_000);
      pool.recycle(large);
      expect(new Pooled(512).buffer).not.toBe(large.buffer);
      expect(new Pooled(100_100).buffer).toBe(large.buffer);
      expect(pool.reused).toBe(2);
      // At most maxBuffers wait.
      const more = Array.from({ length: 4 }, () => new Pooled(512));
      for (const array of more) pool.recycle(array);
      expect(pool.size).toBe(2);
      // An array given back drops the buffers too small to hold it (a growing cache never uses them again).
      pool.recycle(new Pooled(20_000));
      expect(pool.size).toBe(1);
    } finally {
      pool.uninstall();
    }
    expect(scope.Float32Array).toBe(Float32Array);
  });

  it("KvDecoder on onnxruntime-web: the cache's outputs reuse recycled buffers, logits as without", async () => {
    const sink = await generated(options);
    const graph = sink.files.get('onnx/model.onnx')!;
    const prompt = Array.from({ length: 40 }, (_, i) => (i * 131) % 1000);
    const tokens = Array.from({ length: 12 }, (_, i) => (i * 17) % 500);
    // Expected logits from onnxruntime-node, before the pool is installed.
    const node = (await ortNode.InferenceSession.create(graph)) as unknown as OrtSession;
    const reference = new KvDecoder(ortNode as unknown as Ort, node, layoutOf(node, {} as LlmConfig));
    const expected = [Float32Array.from((await reference.prefill(prompt))!)];
    for (const token of tokens) expected.push(Float32Array.from(await reference.step([token])));

    const web = (await import('onnxruntime-web/wasm')) as unknown as Ort;
    const dist = dirname(createRequire(import.meta.url).resolve('onnxruntime-web/wasm'));
    web.env.wasm.numThreads = 1;
    web.env.wasm.wasmBinary = readFileSync(join(dist, 'ort-wasm-simd-threaded.wasm'));
    const session = await web.InferenceSession.create(graph);
    // Every cache tensor of this tiny model is pooled (at least 64 bytes).
    const pool = installOutputPool(64);
    try {
      const decoder = new KvDecoder(web, session, layoutOf(session, {} as LlmConfig));
      expect(worst((await decoder.prefill(prompt))!, expected[0]!)).toBeLessThan(1e-3);
      for (const [i, token] of tokens.entries()) {
        expect(worst(await decoder.step([token]), expected[i + 1]!)).toBeLessThan(1e-3);
        // The old cache went back to the pool as the run started and holds the new one: one cache, no spare.
        expect(pool.size).toBe(0);
      }
      // From the second run on, each run's cache outputs are made in the buffers of the run before.
      expect(pool.reused).toBeGreaterThanOrEqual(tokens.length * 2 * decoder.layout.layers);
    } finally {
      pool.uninstall();
    }
  });
});
