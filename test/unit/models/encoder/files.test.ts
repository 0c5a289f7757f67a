import { expect, it } from 'vitest';
import { encoderFiles } from '../../../../src/common/layouts/embeddings';
import type { FileLoader } from '../../../../src/protocol/weights';

it("says an embedding model's source lacks an encoder, not a decoder", async () => {
  const loader: FileLoader = { has: async (file) => file === 'tokenizer.json', load: async () => new Uint8Array() };
  await expect(encoderFiles(loader, ['q8', 'fp32'])).rejects.toThrow(
    'The model source has no ONNX encoder for dtype q8 or fp32',
  );
});
