import { describe, expect, it } from 'vitest';
import { findGraphFiles, loadExternalData } from '../../../../src/common/layouts/onnx';
import type { FileLoader } from '../../../../src/protocol/weights';

const loaderOf = (files: string[]): FileLoader => ({
  has: async (file) => files.includes(file),
  load: async (file) => new TextEncoder().encode(file),
});

describe('findGraphFiles', () => {
  it('takes the first dtype the source has, under onnx/, with chunked external data', async () => {
    const loader = loaderOf([
      'onnx/model.onnx',
      'onnx/model_q4.onnx',
      'onnx/model_q4.onnx_data',
      'onnx/model_q4.onnx_data_1',
      'onnx/model_q4.onnx_data_2',
    ]);
    const files = await findGraphFiles(loader, ['q8', 'q4', 'fp32']);
    expect(files).toEqual({
      dtype: 'q4',
      graph: 'onnx/model_q4.onnx',
      externalData: ['onnx/model_q4.onnx_data', 'onnx/model_q4.onnx_data_1', 'onnx/model_q4.onnx_data_2'],
    });
    const data = await loadExternalData(loader, files);
    expect(data.map((d) => d.path)).toEqual(['model_q4.onnx_data', 'model_q4.onnx_data_1', 'model_q4.onnx_data_2']);
  });

  it('finds a top-level model.onnx with model.onnx.data (other exporters)', async () => {
    const files = await findGraphFiles(loaderOf(['model.onnx', 'model.onnx.data']), ['q8', 'fp32']);
    expect(files).toEqual({ dtype: 'fp32', graph: 'model.onnx', externalData: ['model.onnx.data'] });
  });

  it('accepts a graph with its weights inside', async () => {
    expect((await findGraphFiles(loaderOf(['onnx/model_fp16.onnx']), ['fp16'])).externalData).toEqual([]);
  });

  it('says what it looked for when nothing fits, and rejects unknown dtypes', async () => {
    await expect(findGraphFiles(loaderOf(['onnx/model.onnx']), ['q4f16'])).rejects.toThrow(
      /no ONNX decoder for dtype q4f16/,
    );
    await expect(findGraphFiles(loaderOf([]), ['q3'])).rejects.toThrow(/Unknown dtype 'q3'/);
  });
});

describe('llmFiles', () => {
  it('lists what loadLlm reads, with the files it can do without marked optional', async () => {
    const { llmFiles } = await import('../../../../src/common/layouts/chat');
    const files = await llmFiles(loaderOf(['onnx/model_quantized.onnx', 'onnx/model_quantized.onnx_data']), ['q8']);
    expect(files.filter((f) => !f.optional).map((f) => f.name)).toEqual([
      'tokenizer.json',
      'tokenizer_config.json',
      'onnx/model_quantized.onnx',
      'onnx/model_quantized.onnx_data',
    ]);
    expect(files.filter((f) => f.optional).map((f) => f.name)).toContain('generation_config.json');
  });
});
