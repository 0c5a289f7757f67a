import { describe, expect, it } from 'vitest';
import { toApiError } from '../../../src/page/api/http/errors';
import { quotaError, StoreError } from '../../../src/common/weights/errors';
import { EngineError } from '../../../src/protocol/errors';
import type { ModelJob } from '../../../src/protocol/jobs';
import type { FileLoader } from '../../../src/protocol/weights';
import { modelSlot } from '../../../src/worker/host/model-slot';
import { loadFile } from '../../../src/worker/speech/onnx';

const JOB = { model: 'embed-v1', base: 'https://models.test/embed/', dtype: 'fp32', backend: 'wasm' } as ModelJob;
const full = () =>
  quotaError('model.onnx', `${JOB.base}model.onnx`, 5_000_000, 1_000, [{ id: 'chat-v2', bytes: 9_000_000 }], 'quota');

describe('a full weight store while a worker loads a model', () => {
  it('is a 507 quota_exceeded with the store’s message, not a 503', async () => {
    const refusal = full();
    const load = modelSlot('embedding model', async () => {
      throw refusal;
    });
    const error = await load(JOB).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect(error).toMatchObject({ kind: 'storage_full', code: 'quota_exceeded', message: refusal.message });
    expect(toApiError(error).body.error).toMatchObject({ type: 'server_error', code: 'quota_exceeded' });
    expect(toApiError(error).status).toBe(507);
    expect(refusal.message).toMatch(/ai\.models\.delete/);
  });

  it('other load failures stay 503 model_unavailable, naming the model', async () => {
    const load = modelSlot('embedding model', async () => {
      throw new StoreError('file_not_found', 'model.onnx is not at https://models.test/embed/model.onnx');
    });
    const error = await load(JOB).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'unavailable', code: 'model_unavailable', param: 'model' });
    expect(toApiError(error).status).toBe(503);
    expect((error as Error).message).toMatch(/^The embedding model could not be loaded from/);
  });

  it("a voice's file: 507 when the store is full, 503 model_load_failed otherwise", async () => {
    const loader = (error: Error): FileLoader => ({
      load: async () => {
        throw error;
      },
      has: async () => true,
    });
    const refusal = full();
    const quota = await loadFile(loader(refusal), 'model.onnx').catch((e: unknown) => e);
    expect(quota).toMatchObject({ kind: 'storage_full', code: 'quota_exceeded', message: refusal.message });
    const other = await loadFile(loader(new Error('offline')), 'model.onnx').catch((e: unknown) => e);
    expect(other).toMatchObject({ kind: 'unavailable', code: 'model_load_failed' });
  });
});
